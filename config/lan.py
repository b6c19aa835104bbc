"""The laptop's addresses on the hall's network (stdlib + ifaddr, no root, any OS)."""

from __future__ import annotations

import ipaddress
import socket
import threading
import time

import ifaddr


def lan_addresses() -> list[str]:
    """IPv4 addresses a phone in the hall can reach (no loopback, no link-local), sorted."""
    found: set[str] = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):  # IPv6: (address, flowinfo, scope)
                continue
            address = ipaddress.IPv4Address(ip.ip)
            if address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            found.add(str(address))
    return sorted(found, key=lambda a: (not ipaddress.IPv4Address(a).is_private,
                                        ipaddress.IPv4Address(a)))


def host_names() -> list[str]:
    """Every name the server answers to: the LAN addresses, the machine's name, localhost."""
    name = socket.gethostname()
    names = [*lan_addresses(), "127.0.0.1", "localhost", "[::1]"]
    if name and name != "localhost":
        names += [name, f"{name}.local"]
    return names


class LiveHostNames(list):
    """ALLOWED_HOSTS that follow the laptop's addresses without restarting the server (a
    restart would drop requests in flight): Django iterates the setting for every request; the
    interfaces are read again at most every ``ttl`` seconds."""

    def __init__(self, extra: list[str], ttl: float = 2.0) -> None:
        super().__init__()
        self.extra = list(extra)
        self.ttl = ttl
        self._at = -ttl
        self._names: tuple[str, ...] = ()
        self._lock = threading.Lock()

    def current(self) -> tuple[str, ...]:
        now = time.monotonic()
        if now - self._at > self.ttl:
            with self._lock:
                if now - self._at > self.ttl:
                    self._names = (*host_names(), *self.extra)  # swapped whole: never empty
                    self._at = now
        return self._names

    def __iter__(self):
        return iter(self.current())

    def __len__(self) -> int:
        return len(self.current())

    def __contains__(self, name: object) -> bool:
        return name in self.current()

    def __repr__(self) -> str:
        return repr(list(self.current()))
