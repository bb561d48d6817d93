"""Client-side load balancing for the typed clients: one channel over every replica.

``address`` may be:

- one ``host:port`` (or a gRPC target such as ``dns:///calendar-headless:50051``): gRPC's DNS
  resolver returns every address of the name — a Kubernetes *headless* Service resolves to
  one A record per ready pod — and the channel balances over all of them;
- several, comma-separated or as a sequence (``10.0.0.5:50051,10.0.0.6:50051``): IP literals
  become one static ``ipv4:``/``ipv6:`` target; host names are resolved once, when the channel
  is made (use a DNS name instead when replicas come and go).

The channel's service config selects ``round_robin``: every call (not every connection) goes to
the next READY replica, so load spreads per call and a replica that is down (connection
refused, not READY) is skipped. A call that fails with UNAVAILABLE (or CANCELLED by a replica
that is stopping) is retried by the client's own retry loop, and that attempt is picked afresh,
i.e. by the rotation, on the next replica.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Sequence
from typing import Any

ROUND_ROBIN_CONFIG = json.dumps({"loadBalancingConfig": [{"round_robin": {}}]})
BALANCING_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("grpc.service_config", ROUND_ROBIN_CONFIG),
    ("grpc.enable_retries", 1),
)


def _addresses(address: str | Sequence[str]) -> list[str]:
    items = address.split(",") if isinstance(address, str) else list(address)
    cleaned = [item.strip() for item in items if item.strip()]
    if not cleaned:
        raise ValueError("at least one address (host:port) is required")
    return cleaned


def _split(address: str) -> tuple[str, str]:
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"{address!r} is not host:port")
    return host.strip("[]"), port


def _ip_version(host: str) -> int | None:
    try:
        return ipaddress.ip_address(host).version
    except ValueError:
        return None


def _resolved(host: str, port: str) -> list[tuple[str, int]]:
    infos = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)
    return [(str(info[4][0]), _ip_version(str(info[4][0])) or 4) for info in infos]


def channel_target(address: str | Sequence[str]) -> str:
    """The gRPC target for ``address`` (one or several replicas, see the module's rules)."""
    addresses = _addresses(address)
    if len(addresses) == 1:
        return addresses[0]
    endpoints: list[tuple[str, str, int]] = []
    for item in addresses:
        host, port = _split(item)
        version = _ip_version(host)
        if version is not None:
            endpoints.append((host, port, version))
        else:
            endpoints.extend((ip, port, v) for ip, v in _resolved(host, port))
    versions = {version for _, _, version in endpoints}
    if versions == {4}:
        return "ipv4:" + ",".join(f"{host}:{port}" for host, port, _ in dict.fromkeys(endpoints))
    if versions == {6}:
        return "ipv6:" + ",".join(f"[{host}]:{port}" for host, port, _ in dict.fromkeys(endpoints))
    raise ValueError("a list of addresses must be all IPv4 or all IPv6 (or use one DNS name)")


def balanced_options(extra: Sequence[tuple[str, Any]] = ()) -> list[tuple[str, Any]]:
    """Channel options selecting ``round_robin``, then ``extra`` (which may override them)."""
    return [*BALANCING_OPTIONS, *extra]
