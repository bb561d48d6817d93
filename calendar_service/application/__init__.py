"""calendar_service.application layer."""
