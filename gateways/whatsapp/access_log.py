"""The gateway's access log: method, path and status of each request, never its query string
(Meta's verification handshake carries ``hub.verify_token`` in it) nor its headers (the
signature)."""

from __future__ import annotations

import structlog
from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

log = structlog.get_logger("agenda.gateway.whatsapp.access")


class AccessLogger(AbstractAccessLogger):
    """``web.run_app(access_log_class=AccessLogger)``."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        log.info(
            "http_request",
            method=request.method,
            path=request.path,
            status=response.status,
            duration_ms=round(time * 1000, 1),
        )
