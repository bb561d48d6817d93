"""A real gRPC server on port 0 serving one generic handler behind given interceptors."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import grpc


@asynccontextmanager
async def serving(
    handler: grpc.GenericRpcHandler, interceptors: Sequence[grpc.aio.ServerInterceptor]
) -> AsyncIterator[grpc.aio.Channel]:
    """A channel to a started server with ``handler``; the server stops on exit."""
    server = grpc.aio.server(interceptors=list(interceptors))
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield channel
    finally:
        await server.stop(None)
