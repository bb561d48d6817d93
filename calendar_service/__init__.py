"""The calendar service: free slots, free/busy and idempotent events over gRPC."""
