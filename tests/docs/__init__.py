"""Checks that the operator docs match the code."""
