"""The gRPC edge of the agent service: servicers, mappers and the error table."""
