"""calendar_service.infrastructure layer."""
