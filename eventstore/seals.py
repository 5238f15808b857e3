"""Seals: keys the database does not hold, so that its owner cannot forge history.

The hash chain finds a row changed behind the store's back, but anyone who can write the
table can also compute a correct plain hash: append a forged event, or change one and
recompute the chain from there. So each event written now also carries a *seal*,
HMAC-SHA256 of its chain hash under the chain key, and the id of that key (`key_id`). The
hash covers the event and, through the chain, every event before it; the seal, kept beside
the hash and outside it, vouches for both. Events written before seals existed keep a NULL
seal and their old hashes: they stay verifiable by the chain, and the signed checkpoints
(`eventstore.checkpoints`) vouch for the stream heads they reached. An unsealed event is
taken as forged once its stream has a sealed event or a checkpoint before it, or once seals
were in use in the store when it was written (a position after the first sealed event's).

The chain keys are a keyring, from the settings (never the database), oldest first:

- `EVENT_CHAIN_KEYS="id1:secret1,id2:secret2"`, or `EVENT_CHAIN_KEYS_FILE` naming a file
  with one `id:secret` a line (blank lines and `#` comments skipped); a secret written
  `hex:<hex digits>` is those bytes;
- or one key: `EVENT_CHAIN_KEY` (or `EVENT_CHAIN_KEY_FILE`, the file's whole content),
  whose id is `EVENT_CHAIN_KEY_ID` (default "1");
- or, outside production only, one derived from SECRET_KEY, with id `derived-<8 hex>` (a
  fingerprint of the derived key, so that another SECRET_KEY is another key id).

The newest (last) key signs; every key verifies what it signed. Seals, checkpoints and
snapshots made before key ids were recorded (key id NULL) are checked with the key that the
upgrade found had made them (migration eventstore 0003, recorded in `eventstore.keys`), by
default the first key.
A key id names its secret for ever: a new secret gets a new id (`manage.py
rotate_chain_key`), so that "sealed with a key this install does not have" is never
confused with forgery (`eventstore.keys` holds a public check value of each id's key).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

__all__ = [
    "ChainKey",
    "checkpoint_signature",
    "event_seal",
    "key_check",
    "keyring",
    "seal_matches",
    "signing_key",
    "snapshot_seal",
]

KEY_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


@dataclass(frozen=True)
class ChainKey:
    key_id: str
    secret: bytes = b""

    def __repr__(self) -> str:  # never the secret, in a log or a traceback
        return f"ChainKey({self.key_id!r})"


def keyring() -> tuple[ChainKey, ...]:
    """The configured chain keys, oldest first (the last one signs)."""
    return _keyring(
        getattr(settings, "EVENT_CHAIN_KEYS", "") or "",
        getattr(settings, "EVENT_CHAIN_KEYS_FILE", "") or "",
        getattr(settings, "EVENT_CHAIN_KEY", "") or "",
        getattr(settings, "EVENT_CHAIN_KEY_FILE", "") or "",
        getattr(settings, "EVENT_CHAIN_KEY_ID", "") or "1",
        settings.SECRET_KEY,
    )


def signing_key() -> ChainKey:
    """The key new seals, checkpoints and snapshots are made with: the newest."""
    return keyring()[-1]


def key_for(key_id: str | None) -> ChainKey | None:
    """The configured key of that id (None: the first key, that of seals made before key
    ids were recorded); None when this install does not have it."""
    ring = keyring()
    if key_id is None:
        return ring[0]
    return next((k for k in ring if k.key_id == key_id), None)


def key_check(key: ChainKey) -> str:
    """A public check value of a key (HMAC of a fixed text under it): tells whether a key
    of some id is the one that signed, and reveals nothing of it."""
    return hmac.new(key.secret, b"eventstore-key-check", hashlib.sha256).hexdigest()


@functools.lru_cache(maxsize=8)
def _keyring(
    keys: str, keys_file: str, key: str, key_file: str, key_id: str, secret_key: str
) -> tuple[ChainKey, ...]:
    if (keys or keys_file) and (key or key_file):
        raise ImproperlyConfigured(
            "Set either EVENT_CHAIN_KEYS / EVENT_CHAIN_KEYS_FILE (a keyring) or"
            " EVENT_CHAIN_KEY / EVENT_CHAIN_KEY_FILE (one key), not both."
        )
    if keys_file:
        return _parse_ring(Path(keys_file).read_text(encoding="utf-8").splitlines(), keys_file)
    if keys:
        return _parse_ring(keys.split(","), "EVENT_CHAIN_KEYS")
    if key or key_file:
        secret = key.encode("utf-8") if key else Path(key_file).read_bytes().strip()
        if not secret:
            raise ImproperlyConfigured(f"The chain key file {key_file} is empty.")
        return (ChainKey(_valid_id(key_id, "EVENT_CHAIN_KEY_ID"), secret),)
    return (derived_key(secret_key),)


def derived_key(secret_key: str) -> ChainKey:
    """The key derived from SECRET_KEY (outside production, when none is set; and the key
    of every release before key ids that ran without EVENT_CHAIN_KEY)."""
    derived = hmac.new(secret_key.encode("utf-8"), b"eventstore-chain-key", hashlib.sha256)
    secret = derived.digest()
    return ChainKey(f"derived-{hashlib.sha256(secret).hexdigest()[:8]}", secret)


def _parse_ring(lines: list[str], where: str) -> tuple[ChainKey, ...]:
    ring: list[ChainKey] = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key_id, sep, secret = line.partition(":")
        if not sep or not secret.strip():
            raise ImproperlyConfigured(f"{where}: each key is written id:secret.")
        ring.append(ChainKey(_valid_id(key_id.strip(), where), _secret(secret.strip(), where)))
    if not ring:
        raise ImproperlyConfigured(f"{where} holds no key.")
    ids = [k.key_id for k in ring]
    if len(set(ids)) != len(ids):
        raise ImproperlyConfigured(f"{where}: a key id appears twice.")
    return tuple(ring)


def _secret(text: str, where: str) -> bytes:
    """A secret as written: text, or `hex:` and its bytes in hex (a key that is not text,
    e.g. one that was derived from SECRET_KEY)."""
    if not text.startswith("hex:"):
        return text.encode("utf-8")
    try:
        return bytes.fromhex(text[4:])
    except ValueError as exc:
        raise ImproperlyConfigured(f"{where}: a hex: secret is not hexadecimal.") from exc


def secret_text(key: ChainKey) -> str:
    """The secret as a keyring line writes it (`_secret` reads it back)."""
    try:
        text = key.secret.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    if not text or text.startswith("hex:") or not text.isprintable() or "," in text:
        return "hex:" + key.secret.hex()
    return text


def _valid_id(key_id: str, where: str) -> str:
    if not KEY_ID_PATTERN.fullmatch(key_id):
        raise ImproperlyConfigured(
            f"{where}: the key id {key_id!r} is not 1 to 40 letters, digits, '.', '_' or '-'."
        )
    return key_id


# --- the seals -----------------------------------------------------------------------------


def event_seal(event_hash: str, key: ChainKey | None = None) -> str:
    """The seal of the event whose chain hash is `event_hash` (by default with the signing
    key)."""
    secret = (key or signing_key()).secret
    return hmac.new(secret, b"event:" + event_hash.encode("ascii"), hashlib.sha256).hexdigest()


def seal_matches(event_hash: str, seal: str, key: ChainKey | None = None) -> bool:
    return hmac.compare_digest(event_seal(event_hash, key), seal)


def checkpoint_signature(
    stream_id: str, version: int, event_hash: str, key: ChainKey | None = None
) -> str:
    """The signature of a checkpoint: stream `stream_id` reached `version`, whose event's
    chain hash is `event_hash`."""
    message = f"checkpoint:{stream_id}:{version}:{event_hash}".encode()
    return hmac.new((key or signing_key()).secret, message, hashlib.sha256).hexdigest()


def snapshot_seal(
    stream_id: str,
    kind: str,
    version: int,
    event_hash: str,
    digests_text: str,
    key: ChainKey | None = None,
) -> str:
    """The seal of a snapshot: its stream, kind, version, the chain hash of the event it
    stands at, and its state (`digests_text`: the canonical JSON of the digests of its
    top-level keys, so that a part of the state can be checked alone)."""
    digest = hashlib.sha256(digests_text.encode("utf-8")).hexdigest()
    message = f"snapshot:{stream_id}:{kind}:{version}:{event_hash}:{digest}".encode()
    return hmac.new((key or signing_key()).secret, message, hashlib.sha256).hexdigest()
