"""agent_service.domain layer."""
