"""No webhook to our own network (SSRF): an endpoint's host is resolved and every address
it resolves to must be public, at registration and again at each delivery, which then
connects to an address that was checked (`sending`), not to a second lookup's answer.

Refused: loopback, private, link-local, shared (CGNAT), multicast, reserved, unspecified,
and every IPv6 address that embeds a refused IPv4 address (IPv4-mapped, IPv4-compatible,
6to4, NAT64, Teredo: a relay or translator would carry it there), unless an address is in
`WEBHOOK_ALLOWED_NETWORKS` (CIDRs; the tests allow 127.0.0.1 there: an embedded address is
judged without it, as the allow-list names the addresses one connects to). Only http and
https.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext_noop

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


# IPv6 prefixes whose addresses carry an IPv4 address in their last 32 bits.
_NAT64_WELL_KNOWN = ipaddress.IPv6Network("64:ff9b::/96")
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
# Local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the operator's prefix
# length, so none of it is reachable.
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")


def address_allowed(address: str) -> bool:
    ip: IPAddress = ipaddress.ip_address(address.split("%", 1)[0])  # no IPv6 zone id
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if any(ip in network for network in _allowed_networks()):
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _NAT64_LOCAL:
            return False
        if any(_blocked(v4) for v4 in _embedded_ipv4(ip)):
            return False
    return not _blocked(ip)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (6to4, Teredo's server and client, NAT64,
    IPv4-compatible)."""
    embedded = []
    if ip.sixtofour is not None:
        embedded.append(ip.sixtofour)
    if ip.teredo is not None:
        embedded.extend(ip.teredo)
    if ip in _NAT64_WELL_KNOWN or ip in _IPV4_COMPATIBLE:
        embedded.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return embedded


def _blocked(ip: IPAddress) -> bool:
    return (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or not ip.is_global  # shared 100.64/10, benchmarking, documentation ranges
    )


def url_parse(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an http(s) URL, or WebhookUrlError."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise WebhookUrlError(
            gettext_noop("not a valid URL: %(error)s"), params={"error": exc}
        ) from exc
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
            gettext_noop("the host %(host)r does not resolve"),
            code="webhook_url_unresolvable",
            params={"host": host},
        ) from exc
    addresses = tuple(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise WebhookUrlError(
            gettext_noop("the host %(host)r does not resolve"),
            code="webhook_url_unresolvable",
            params={"host": host},
        )
    refused = [a for a in addresses if not address_allowed(a)]
    if refused:
        raise WebhookUrlError(
            gettext_noop(
                "the host %(host)r resolves to an address webhooks may not reach (%(address)s):"
                " private, loopback, link-local and reserved addresses are refused"
            ),
            params={"host": host, "address": refused[0]},
        )
    return Target(scheme=scheme, host=host, port=port, path=path, addresses=addresses)
