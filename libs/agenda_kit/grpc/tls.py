"""Server and channel credentials from certificate files (TLS, or mTLS with a client CA)."""

from __future__ import annotations

from pathlib import Path

import grpc


def server_credentials(
    cert_file: Path | None, key_file: Path | None, client_ca_file: Path | None = None
) -> grpc.ServerCredentials | None:
    """TLS credentials when a certificate and key are configured; mTLS when a client CA is too.

    None means plaintext (local development, or TLS terminated by a sidecar).
    """
    if cert_file is None and key_file is None:
        return None
    if cert_file is None or key_file is None:
        raise ValueError("TLS needs both a certificate file and a key file")
    pair = [(key_file.read_bytes(), cert_file.read_bytes())]
    if client_ca_file is None:
        return grpc.ssl_server_credentials(pair)
    return grpc.ssl_server_credentials(
        pair, root_certificates=client_ca_file.read_bytes(), require_client_auth=True
    )
