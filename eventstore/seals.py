"""Seals: a key the database does not hold, so that its owner cannot forge history.

The hash chain finds a row changed behind the store's back, but anyone who can write the
table can also compute a correct plain hash: append a forged event, or change one and
recompute the chain from there. So each event written now also carries a *seal*,
HMAC-SHA256 of its chain hash under EVENT_CHAIN_KEY (from the settings: the environment or
a file; by default derived from SECRET_KEY). The hash covers the event and, through the
chain, every event before it; the seal, kept beside the hash and outside it, vouches for
both. Events written before seals existed keep a NULL seal and their old hashes: they stay
verifiable by the chain, and the signed checkpoints (`eventstore.checkpoints`) vouch for
the stream heads they reached. An unsealed event is taken as forged once its stream has a
sealed event or a checkpoint before it, or once seals were in use in the store when it was
written (a position after the first sealed event's).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from pathlib import Path

from django.conf import settings

__all__ = ["chain_key", "checkpoint_signature", "event_seal", "seal_matches", "snapshot_seal"]


def chain_key() -> bytes:
    """EVENT_CHAIN_KEY, or the contents of EVENT_CHAIN_KEY_FILE, or one derived from
    SECRET_KEY (never stored in the database)."""
    return _key(
        getattr(settings, "EVENT_CHAIN_KEY", "") or "",
        getattr(settings, "EVENT_CHAIN_KEY_FILE", "") or "",
        settings.SECRET_KEY,
    )


@functools.lru_cache(maxsize=4)
def _key(key: str, key_file: str, secret_key: str) -> bytes:
    if key:
        return key.encode("utf-8")
    if key_file:
        return Path(key_file).read_bytes().strip()
    return hmac.new(secret_key.encode("utf-8"), b"eventstore-chain-key", hashlib.sha256).digest()


def event_seal(event_hash: str) -> str:
    """The seal of the event whose chain hash is `event_hash`."""
    return hmac.new(chain_key(), b"event:" + event_hash.encode("ascii"), hashlib.sha256).hexdigest()


def seal_matches(event_hash: str, seal: str) -> bool:
    return hmac.compare_digest(event_seal(event_hash), seal)


def checkpoint_signature(stream_id: str, version: int, event_hash: str) -> str:
    """The signature of a checkpoint: stream `stream_id` reached `version`, whose event's
    chain hash is `event_hash`."""
    message = f"checkpoint:{stream_id}:{version}:{event_hash}".encode()
    return hmac.new(chain_key(), message, hashlib.sha256).hexdigest()


def snapshot_seal(
    stream_id: str, kind: str, version: int, event_hash: str, digests_text: str
) -> str:
    """The seal of a snapshot: its stream, kind, version, the chain hash of the event it
    stands at, and its state (`digests_text`: the canonical JSON of the digests of its
    top-level keys, so that a part of the state can be checked alone)."""
    digest = hashlib.sha256(digests_text.encode("utf-8")).hexdigest()
    message = f"snapshot:{stream_id}:{kind}:{version}:{event_hash}:{digest}".encode()
    return hmac.new(chain_key(), message, hashlib.sha256).hexdigest()
