"""gRPC server bootstrap and interceptors shared by both services."""
