"""The reference WhatsApp Cloud API gateway (aiohttp): the webhook in, ``SendMessage`` to the
agent, the reply and the outbox out through the Graph API's send-message endpoint.
docs/gateways.md is its contract; ``python -m gateways.whatsapp`` (``make run-gateway``) runs it."""
