"""``SITE_URL``: the addresses the site is reached at, in one setting.

``SITE_URL=https://chess.example.org`` (or several, comma-separated: at a venue the
server's LAN address too, ``https://chess.example.org,https://192.168.1.20``).  From it
come Django's allowed hosts and trusted origins (arbiter_site/settings.py) and the names
of the self-signed certificate the web container makes when ``certs/`` is empty
(docker/start.py): three lists that used to have to agree.

Standard library only: the start script imports it before Django is set up.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit


class SiteUrlError(ValueError):
    """A SITE_URL entry that is not ``http(s)://host[:port]``."""


@dataclass(frozen=True)
class SiteAddress:
    scheme: str
    host: str  # lower case; an IPv6 address without brackets
    port: int | None

    @property
    def is_ip(self) -> bool:
        try:
            ipaddress.ip_address(self.host)
        except ValueError:
            return False
        return True

    @property
    def allowed_host(self) -> str:
        """The form Django's ALLOWED_HOSTS matches (IPv6 in brackets)."""
        return f"[{self.host}]" if ":" in self.host else self.host

    @property
    def origin(self) -> str:
        default = {"http": 80, "https": 443}[self.scheme]
        port = f":{self.port}" if self.port is not None and self.port != default else ""
        return f"{self.scheme}://{self.allowed_host}{port}"


def parse_site_urls(raw: str) -> list[SiteAddress]:
    """Every address of ``raw`` (comma-separated), in order, without repeats."""
    addresses: list[SiteAddress] = []
    for item in (part.strip() for part in raw.split(",")):
        if not item:
            continue
        parts = urlsplit(item)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SiteUrlError(f"SITE_URL: {item!r} is not an address like https://chess.example.org")
        if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
            raise SiteUrlError(f"SITE_URL: {item!r} must be the site's address only (scheme, name, port), no path")
        try:
            port = parts.port
        except ValueError as exc:
            raise SiteUrlError(f"SITE_URL: {item!r} has a bad port") from exc
        host = parts.hostname.lower()
        if "*" in host or " " in host:
            raise SiteUrlError(f"SITE_URL: {item!r}: one name per address, no wildcards")
        address = SiteAddress(parts.scheme, host, port)
        if address not in addresses:
            addresses.append(address)
    return addresses
