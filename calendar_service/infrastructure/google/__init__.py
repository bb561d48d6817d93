"""Google Calendar adapter: REST over aiohttp, service-account tokens from google-auth."""

from calendar_service.infrastructure.google.adapter import GoogleCalendarAdapter

__all__ = ["GoogleCalendarAdapter"]
