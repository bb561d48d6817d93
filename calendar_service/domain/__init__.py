"""calendar_service.domain layer."""
