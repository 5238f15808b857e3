"""One HTTP attempt of a delivery, to an address the guard checked (no second lookup, so
a DNS answer that changes between check and connect cannot point us inside), with short
timeouts, no redirects followed, and only the first bytes of the answer kept."""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass

from tournaments.webhooks.guard import Target

RESPONSE_EXCERPT_BYTES = 2000
USER_AGENT = "hollywood-gin-webhooks/1"


@dataclass(frozen=True)
class Outcome:
    status_code: int | None  # None: no HTTP answer (refused, timed out, TLS failure)
    latency_ms: int
    response: str  # the first bytes of the body
    error: str  # empty on an HTTP answer

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        self._tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self._tls)
        self._address = address

    def connect(self) -> None:
        raw = socket.create_connection((self._address, self.port), self.timeout)
        # The certificate is checked against the host name, as for any HTTPS request.
        self.sock = self._tls.wrap_socket(raw, server_hostname=self.host)


def post(*, target: Target, body: bytes, headers: dict[str, str], timeout: float) -> Outcome:
    """POST `body` to the target's first checked address."""
    cls = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = cls(target.host, target.port, target.addresses[0], timeout)
    started = time.monotonic()
    try:
        connection.request(
            "POST",
            target.path,
            body=body,
            headers={
                "Content-Type": "application/json",
                "User-Agent": USER_AGENT,
                **headers,
            },
        )
        response = connection.getresponse()
        excerpt = response.read(RESPONSE_EXCERPT_BYTES)
        return Outcome(
            status_code=response.status,
            latency_ms=_ms(started),
            response=excerpt.decode("utf-8", "replace").replace("\x00", ""),  # no NUL in text
            error="",
        )
    except (OSError, http.client.HTTPException) as exc:  # timeouts are OSErrors
        message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return Outcome(status_code=None, latency_ms=_ms(started), response="", error=message)
    finally:
        connection.close()


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)
