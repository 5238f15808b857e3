"""The signature of a delivery, and the recipe a receiver follows to check it.

Header `X-HG-Signature: t=<unix seconds>,v1=<hex>` where `<hex>` is
HMAC-SHA256(secret, "<t>." + body) over the raw body bytes. A receiver recomputes it with
the secret it was shown once, compares in constant time, and refuses a `t` too far from its
clock (replays). Several `v1=` entries may come (a future secret rotation); one must match.
Pure Python: the README's recipe is `signature_verify` without the type hints.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

SIGNATURE_HEADER = "X-HG-Signature"
SECRET_PREFIX = "whsec_"
DEFAULT_TOLERANCE_SECONDS = 300


def secret_generate() -> str:
    return SECRET_PREFIX + secrets.token_urlsafe(32)


def signature(*, secret: str, timestamp: int, body: bytes) -> str:
    signed = f"{timestamp}.".encode() + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def signature_header(*, secret: str, body: bytes, timestamp: int | None = None) -> str:
    t = int(time.time()) if timestamp is None else timestamp
    return f"t={t},v1={signature(secret=secret, timestamp=t, body=body)}"


def signature_verify(
    *,
    secret: str,
    body: bytes,
    header: str,
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
    now: float | None = None,
) -> bool:
    """True if `header` signs `body` with `secret` and its time is within `tolerance`."""
    try:
        parts = [item.split("=", 1) for item in header.split(",")]
        t = int(next(value for key, value in parts if key.strip() == "t"))
        candidates = [value for key, value in parts if key.strip() == "v1"]
    except (ValueError, StopIteration):
        return False  # no t=, an entry without "=", a t that is not a number
    current = time.time() if now is None else now
    if abs(current - t) > tolerance:
        return False
    expected = signature(secret=secret, timestamp=t, body=body)
    return any(hmac.compare_digest(expected, c.strip()) for c in candidates)
