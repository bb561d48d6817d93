"""The gRPC edge of the calendar service: servicer, mappers and the error table."""
