"""agent_service.application layer."""
