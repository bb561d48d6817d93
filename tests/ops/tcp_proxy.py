"""A TCP forwarder a test can cut and restore, to make a dependency unreachable on purpose."""

from __future__ import annotations

import asyncio
import contextlib


class TcpProxy:
    """Forwards ``127.0.0.1:port`` to ``127.0.0.1:target_port``.

    ``close()`` stops listening and drops every open connection (the dependency looks down);
    ``open()`` listens again on the same port (it looks back up).
    """

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def open(self) -> int:
        self._server = await asyncio.start_server(self._forward, "127.0.0.1", self.port)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self._writers.update({writer, up_writer})
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        self._writers.difference_update({writer, up_writer})


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError, asyncio.IncompleteReadError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.transport.abort()
