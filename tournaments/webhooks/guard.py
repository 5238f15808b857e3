"""No webhook to our own network (SSRF): an endpoint's host is resolved and every address
it resolves to must be public, at registration and again at each delivery, which then
connects to an address that was checked (`sending`), not to a second lookup's answer.

Refused: loopback, private, link-local, shared (CGNAT), multicast, reserved, unspecified,
and IPv6 forms of those (IPv4-mapped included), unless an address is in
`WEBHOOK_ALLOWED_NETWORKS` (CIDRs; the tests allow 127.0.0.1 there). Only http and https.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from core.errors import ValidationError

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class WebhookUrlError(ValidationError):
    """The URL is not one we send to."""

    code = "webhook_url_refused"


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query string
    addresses: tuple[str, ...]  # every address the host resolved to, all allowed


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [
        ipaddress.ip_network(str(n).strip(), strict=False)
        for n in getattr(settings, "WEBHOOK_ALLOWED_NETWORKS", [])
        if str(n).strip()
    ]


def address_allowed(address: str) -> bool:
    ip: IPAddress = ipaddress.ip_address(address.split("%", 1)[0])  # no IPv6 zone id
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if any(ip in network for network in _allowed_networks()):
        return True
    blocked = (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global  # shared 100.64/10, benchmarking, documentation ranges
    )
    return not blocked


def url_parse(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an http(s) URL, or WebhookUrlError."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise WebhookUrlError(f"not a valid URL: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise WebhookUrlError("only http and https URLs are allowed")
    if not parts.hostname:
        raise WebhookUrlError("the URL has no host")
    if parts.username is not None or parts.password is not None:
        raise WebhookUrlError("credentials in the URL are not allowed; the signature authenticates")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return scheme, parts.hostname, port or (443 if scheme == "https" else 80), path


def url_check(url: str) -> Target:
    """Parse and resolve `url`; every address must be allowed. Raises WebhookUrlError."""
    scheme, host, port, path = url_parse(url)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError) as exc:
        raise WebhookUrlError(
            f"the host {host!r} does not resolve", code="webhook_url_unresolvable"
        ) from exc
    addresses = tuple(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise WebhookUrlError(
            f"the host {host!r} does not resolve", code="webhook_url_unresolvable"
        )
    refused = [a for a in addresses if not address_allowed(a)]
    if refused:
        raise WebhookUrlError(
            f"the host {host!r} resolves to an address webhooks may not reach ({refused[0]}): "
            "private, loopback, link-local and reserved addresses are refused"
        )
    return Target(scheme=scheme, host=host, port=port, path=path, addresses=addresses)
