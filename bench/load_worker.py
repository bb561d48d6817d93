"""``python -m bench.load_worker``: closed-loop load on unary methods, from its own process.

``--concurrency`` tasks share one ``grpc.aio`` channel; each sends the request bytes of
``--payload-file`` again as soon as its previous call returns. After ``--warmup`` seconds
(discarded) the ``--method`` values take turns, ``--rounds`` times, ``--duration`` seconds
each: alternating short phases keep a shared machine's drift out of the comparison.
Requests and replies stay raw bytes (no protobuf parsing here), so the load process costs the
same for every method. With ``--server-pid`` the server's CPU time is read around each phase.

Prints one JSON object per method: requests, errors, RPS of each round, pooled latency
percentiles, server CPU per request, client CPU.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import grpc
import psutil  # type: ignore[import-untyped]

from bench.harness import bearer, percentiles


async def _phase(
    call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes],
    payload: bytes,
    metadata: tuple[tuple[str, str], ...],
    concurrency: int,
    seconds: float,
) -> tuple[list[float], int, float]:
    latencies: list[float] = []
    errors = [0]
    deadline = time.perf_counter() + seconds

    async def loop() -> None:
        while time.perf_counter() < deadline:
            began = time.perf_counter()
            try:
                await call(payload, metadata=metadata, timeout=30)
            except grpc.aio.AioRpcError:
                errors[0] += 1
                continue
            latencies.append(time.perf_counter() - began)

    began = time.perf_counter()
    await asyncio.gather(*(loop() for _ in range(concurrency)))
    return latencies, errors[0], time.perf_counter() - began


def _cpu(process: psutil.Process | None) -> float:
    return float(sum(process.cpu_times()[:2])) if process is not None else 0.0


async def run(
    address: str,
    methods: list[str],
    payload: bytes,
    token: str,
    *,
    concurrency: int,
    duration: float,
    warmup: float,
    rounds: int,
    server_pid: int | None = None,
) -> dict[str, Any]:
    server = psutil.Process(server_pid) if server_pid else None
    metadata = bearer(token)
    latencies: dict[str, list[float]] = {method: [] for method in methods}
    rps: dict[str, list[float]] = {method: [] for method in methods}
    errors = dict.fromkeys(methods, 0)
    server_cpu = dict.fromkeys(methods, 0.0)
    client_cpu = dict.fromkeys(methods, 0.0)
    async with grpc.aio.insecure_channel(address) as channel:
        calls: dict[str, grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]] = {
            method: channel.unary_unary(method) for method in methods
        }
        for method in methods:
            await _phase(calls[method], payload, metadata, concurrency, warmup / len(methods))
        for _ in range(rounds):
            for method in methods:
                cpu_server, cpu_client = _cpu(server), time.process_time()
                done, failed, elapsed = await _phase(
                    calls[method], payload, metadata, concurrency, duration
                )
                server_cpu[method] += _cpu(server) - cpu_server
                client_cpu[method] += time.process_time() - cpu_client
                latencies[method] += done
                errors[method] += failed
                rps[method].append(len(done) / elapsed)
    return {
        method: {
            "concurrency": concurrency,
            "requests": len(latencies[method]),
            "errors": errors[method],
            "rps": round(statistics.median(rps[method]), 1),
            "rps_rounds": [round(value, 1) for value in rps[method]],
            **percentiles(latencies[method]),
            "max_ms": round(max(latencies[method], default=0.0) * 1000, 3),
            "server_cpu_us_per_request": round(
                1e6 * server_cpu[method] / max(1, len(latencies[method])), 1
            ),
            "client_cpu_us_per_request": round(
                1e6 * client_cpu[method] / max(1, len(latencies[method])), 1
            ),
        }
        for method in methods
    }


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.load_worker")
    parser.add_argument("--address", required=True)
    parser.add_argument("--method", action="append", required=True, help="/pkg.Service/Method")
    parser.add_argument("--payload-file", type=Path, required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--duration", type=float, default=1.0, help="seconds per phase")
    parser.add_argument("--warmup", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--server-pid", type=int, default=None)
    args = parser.parse_args(argv)
    result = asyncio.run(
        run(
            args.address,
            args.method,
            args.payload_file.read_bytes(),
            args.token,
            concurrency=args.concurrency,
            duration=args.duration,
            warmup=args.warmup,
            rounds=args.rounds,
            server_pid=args.server_pid,
        )
    )
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
