"""The assistant's tools: typed, validated, returning short text for the model."""
