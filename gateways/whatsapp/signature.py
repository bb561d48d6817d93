"""The webhook's signature (``X-Hub-Signature-256: sha256=<hex>``): the HMAC-SHA256 of the raw
body keyed with the app secret, checked before the body is parsed, in constant time."""

from __future__ import annotations

import hashlib
import hmac

HEADER = "X-Hub-Signature-256"
_PREFIX = "sha256="


def signature_of(body: bytes, app_secret: str) -> str:
    """The header value Meta sends for ``body``."""
    return _PREFIX + hmac.new(app_secret.encode(), body, hashlib.sha256).hexdigest()


def is_signed(body: bytes, header: str | None, app_secret: str) -> bool:
    """Whether ``header`` is the signature of exactly these bytes (absent or malformed: no)."""
    if not header or not header.startswith(_PREFIX) or not app_secret:
        return False
    return hmac.compare_digest(header.encode(), signature_of(body, app_secret).encode())
