"""``python -m gateways.whatsapp``: the reference WhatsApp gateway (settings: WHATSAPP_*)."""

from __future__ import annotations

from aiohttp import web

from agenda_kit.logging import configure_logging
from gateways.whatsapp.access_log import AccessLogger
from gateways.whatsapp.app import build_app, secrets_of
from gateways.whatsapp.settings import WhatsAppSettings


def main() -> None:
    settings = WhatsAppSettings()  # the required ones come from the environment
    configure_logging()
    web.run_app(
        build_app(settings, secrets_of(settings)),
        host=settings.listen_host,
        port=settings.listen_port,
        print=None,
        access_log_class=AccessLogger,
    )


if __name__ == "__main__":
    main()
