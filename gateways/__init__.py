"""Reference channel gateways: how a channel reaches the agent service over its public contract
(``agenda.agent.v1``) and nothing else (import-linter keeps them off the services' code)."""
