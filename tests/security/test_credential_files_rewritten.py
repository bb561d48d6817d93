"""A credential file rewritten with the same size and modification time is read again
(session 44, blind attacker review, LOW: a principals file whose token hash was replaced, or a
JWKS whose key was withdrawn, kept working when the file was rewritten keeping its
modification time — ``cp -p``, ``rsync -t`` — and its size, as a 64-character hash or a key of
the same length does: the change check looked at those two only). The content decides."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

from agenda_kit.auth.directory import PrincipalDirectory, token_hash
from agenda_kit.auth.jwks import FileKeySource

BODY = '[[principal]]\nname = "c"\nrole = "calendar-client"\ntoken_sha256 = ["{}"]\n'


def _rewrite_keeping_stamp(path: Path, text: str) -> None:
    """``text`` in place of the file, same size, the old modification time restored."""
    before = path.stat()
    assert len(text.encode()) == before.st_size
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_replaced_token_hash_is_refused_after_a_rewrite_that_keeps_the_stamp(
    tmp_path: Path,
) -> None:
    old, new = "old-token-0123456789", "new-token-0123456789"
    path = tmp_path / "principals.toml"
    path.write_text(BODY.format(token_hash(old)))
    directory = PrincipalDirectory(path)
    assert directory.current().by_token(old) is not None
    _rewrite_keeping_stamp(path, BODY.format(token_hash(new)))
    assert directory.current().by_token(old) is None
    assert directory.current().by_token(new) is not None


def _jwks(secret: bytes, kid: str) -> str:
    key = base64.urlsafe_b64encode(secret).decode().rstrip("=")
    return json.dumps({"keys": [{"kty": "oct", "k": key, "kid": kid, "alg": "HS256"}]})


async def test_a_withdrawn_key_is_gone_after_a_rewrite_that_keeps_the_stamp(
    tmp_path: Path,
) -> None:
    path = tmp_path / "jwks.json"
    path.write_text(_jwks(b"a" * 32, "key-1"))
    source = FileKeySource(path)
    assert (await source.current()).by_kid("key-1") is not None
    _rewrite_keeping_stamp(path, _jwks(b"b" * 32, "key-2"))
    keys = await source.current()
    assert keys.by_kid("key-1") is None and keys.by_kid("key-2") is not None
