"""Where a webhook may go: public addresses only, unless the deployment allows private ones.

A check of the host's addresses before the POST is not enough when the POST resolves the
name again: a name whose DNS answers change between the two (DNS rebinding) would pass the
check with a public address and then connect to 127.0.0.1. So the check is the resolver of
the notifier's HTTP client (`PublicResolver`): aiohttp connects to exactly the addresses it
returned, and it returns none unless every address the name has is public. A URL naming an
IP literal is never resolved by aiohttp, so `check_url` checks the literal itself.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult


class NotPublic(OSError):
    """The webhook's host is (or resolves to) an address a notice must not reach."""


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def refused(ip: IPAddress) -> bool:
    """Loopback, private, link-local, shared, reserved, multicast or unspecified: anything but
    a global unicast address (an IPv4-mapped IPv6 address is judged as its IPv4 address)."""
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return not ip.is_global or ip.is_multicast


def literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


def check_url_host(host: str, allow_private: bool) -> None:
    """Refuse an IP-literal host that is not public (names are checked as they resolve)."""
    ip = literal(host)
    if ip is not None and not allow_private and refused(ip):
        raise NotPublic(f"{host} is not a public address")


class PublicResolver(AbstractResolver):
    """Resolves once per connection and answers only if every address is public (or
    private ones are allowed): what it returns is what the connection uses."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private
        self._inner = aiohttp.ThreadedResolver()

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        found = await self._inner.resolve(host, port, family)
        if not self.allow_private:
            for entry in found:
                ip = ipaddress.ip_address(entry["host"])
                if refused(ip):
                    # One bad address refuses the name: a round-robin answer could otherwise
                    # send some notices inside.
                    raise NotPublic(f"{host} resolves to a non-public address ({ip})")
        return found

    async def close(self) -> None:
        await self._inner.close()


def webhook_session(allow_private: bool, **kw: Any) -> aiohttp.ClientSession:
    """The notifier's HTTP client: names resolved by `PublicResolver` on every new connection
    (no DNS cache, whose entries would outlive the check's answer), no proxy from the
    environment (it would resolve the name itself)."""
    connector = aiohttp.TCPConnector(resolver=PublicResolver(allow_private), use_dns_cache=False)
    return aiohttp.ClientSession(connector=connector, trust_env=False, **kw)
