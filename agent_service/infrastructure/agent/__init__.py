"""Conversational agent models (the language layer of the scheduling assistant)."""
