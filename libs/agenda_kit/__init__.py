"""The small kit both services share: gRPC server bootstrap, auth, errors, settings, logging,
metrics, the embedded MongoDB launcher and the ``ICalendarAdapter`` port."""
