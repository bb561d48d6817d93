"""The agent service: the multi-tenant scheduling assistant over gRPC."""
