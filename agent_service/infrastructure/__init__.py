"""agent_service.infrastructure layer."""
