"""Checks of compose.yaml, the Dockerfile and .dockerignore (no Docker engine needed)."""
