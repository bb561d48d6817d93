"""Serve the Google Calendar emulator as a process (compose profile ``google-emulator``).

    python -m tests.fakes.run_google_emulator --host 0.0.0.0 --port 8085 \
        --public-url http://google-emulator:8085 --key-file /keys/service-account.json

It trusts one freshly generated service account, writes that account's Google-format JSON
key file to ``--key-file`` (with ``token_uri`` = ``PUBLIC_URL/token``) once it is listening,
and accepts any calendar id. Point the calendar service at it with
``CALENDAR_GOOGLE_CREDENTIALS_FILE``, ``CALENDAR_GOOGLE_API_BASE=PUBLIC_URL/calendar/v3`` and
``CALENDAR_GOOGLE_TOKEN_URI=PUBLIC_URL/token``. State lives in memory only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
from pathlib import Path

from aiohttp import web
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.fakes.google_calendar import Emulator

SERVICE_ACCOUNT = "agenda-emulator@agenda-emulator.iam.gserviceaccount.com"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.fakes.run_google_emulator")
    parser.add_argument("--host", default=os.environ.get("EMULATOR_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("EMULATOR_PORT", "8085")))
    parser.add_argument(
        "--public-url",
        default=os.environ.get("EMULATOR_PUBLIC_URL"),
        help="URL clients use to reach the emulator (default http://HOST:PORT)",
    )
    parser.add_argument(
        "--key-file",
        type=Path,
        default=Path(os.environ.get("EMULATOR_KEY_FILE", "service-account.json")),
        help="where to write the trusted service account's JSON key",
    )
    parser.add_argument(
        "--subject", action="append", default=[], help="a user the account may impersonate"
    )
    return parser.parse_args(argv)


def key_file_json(key: rsa.RSAPrivateKey, token_uri: str) -> str:
    """A Google service-account key file for ``key`` whose token endpoint is ``token_uri``."""
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")
    info = {
        "type": "service_account",
        "project_id": "agenda-emulator",
        "private_key_id": "emulator-key",
        "private_key": pem,
        "client_email": SERVICE_ACCOUNT,
        "client_id": "100000000000000000002",
        "token_uri": token_uri,
    }
    return json.dumps(info)


async def serve(args: argparse.Namespace) -> None:
    emulator = Emulator(allow_any_calendar=True)
    emulator.root_url = (args.public_url or f"http://{args.host}:{args.port}").rstrip("/")
    emulator.oauth.token_uri = emulator.token_uri
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    emulator.oauth.register(SERVICE_ACCOUNT, key.public_key(), frozenset(args.subject))
    runner = web.AppRunner(emulator.app(), shutdown_timeout=1.0, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, args.host, args.port).start()
    args.key_file.parent.mkdir(parents=True, exist_ok=True)
    args.key_file.write_text(key_file_json(key, emulator.token_uri), encoding="utf-8")
    sys.stderr.write(f"google calendar emulator on {emulator.root_url}; key: {args.key_file}\n")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


if __name__ == "__main__":
    asyncio.run(serve(parse_args(sys.argv[1:])))
