"""Read replicas with read-your-writes (issue 36): which database a read goes to.

`DATABASE_REPLICA_URL` (comma-separated) adds the databases `replica1..N`; without it none
of this is installed and every query goes to `default`, as before.

The rule, in one place:
- every write goes to the primary (`default`), and so does every read while a transaction
  is open on it (inside `transaction.atomic`: a service's reads that decide its writes);
- a GET or HEAD request may read from a replica (`ReplicaReadsMiddleware` chooses one for
  the request and keeps it in a context variable the router reads); any other method, a
  job, a command or a stream reads from the primary;
- read-your-writes: a request that may have written (not GET/HEAD/OPTIONS) answers with the
  primary's WAL position after its commit, `pg_current_wal_lsn()`, in the `X-Read-After`
  header and the `hg_read_after` cookie. A later request that brings either is served by a
  replica only once the replica has replayed that far (`pg_last_wal_replay_lsn()`), else
  by the primary;
- a replica that is down, or lags more than `DATABASE_REPLICA_MAX_LAG_SECONDS` behind, is
  skipped (logged when that changes, counted in `hg_replica_skipped`), never an error.

Streams keep reading from the primary: a stream's body runs after this middleware has
returned (its context variable is reset by then), so its catch-up reads, which must see at
least the version a NOTIFY announced, never meet a replica that is behind it.

Raw SQL through `django.db.connection` is the primary's connection whatever the router
says: such reads stay on the primary (correct, only not offloaded). The event store reads
that way, so a match's view and replay are the primary's; the read models (lists,
registrations, standings, the pages built from them) are a replica's.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

from core.metrics import replica_skipped

HEADER = "X-Read-After"
COOKIE = "hg_read_after"
PRIMARY = "default"
SAFE_METHODS = frozenset({"GET", "HEAD"})
_LSN = re.compile(r"^([0-9A-Fa-f]{1,8})/([0-9A-Fa-f]{1,8})$")

log = logging.getLogger("hg.replicas")

# The alias this request's reads go to outside a transaction; None: the primary.
read_alias_var: ContextVar[str | None] = ContextVar("hg_read_alias", default=None)


def replica_aliases() -> list[str]:
    """The configured replicas' aliases, in order (`replica1`, `replica2`, ...)."""
    return sorted(
        (alias for alias in settings.DATABASES if alias.startswith("replica")),
        key=lambda alias: int(alias.removeprefix("replica") or 0),
    )


def lsn_parse(value: str | None) -> int | None:
    """A WAL position as PostgreSQL prints it (`16/B374D848`) as a number; None if it is not
    one (a client's header is taken at its word only if it is well formed)."""
    match = _LSN.match((value or "").strip())
    if match is None:
        return None
    return (int(match.group(1), 16) << 32) + int(match.group(2), 16)


class ReplicaRouter:
    """Reads to the request's replica (outside a transaction on the primary), everything
    else to the primary; migrations only on the primary (replicas copy it)."""

    def db_for_read(self, model: Any, **hints: Any) -> str:
        alias = read_alias_var.get()
        if alias is None or connections[PRIMARY].in_atomic_block:
            return PRIMARY
        return alias

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # one database and its copies

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == PRIMARY


@dataclass
class _State:
    checked: float = 0.0
    replayed: int | None = None  # pg_last_wal_replay_lsn()
    lag: float = 0.0  # seconds behind the primary's last commit it has received
    down: bool = False
    reason: str = ""  # why it was last skipped ("" when it was usable)


_states: dict[str, _State] = {}


def _check(alias: str) -> _State:
    """Ask the replica how far it has replayed and how far behind it is."""
    state = _states.setdefault(alias, _State())
    state.checked = time.monotonic()
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute(
                "SELECT pg_last_wal_replay_lsn()::text,"
                " CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0"
                " ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()),"
                " 0) END"
            )
            replayed, lag = cursor.fetchone()
    except DatabaseError:
        # Down (or not a standby at all): closed, so the next check connects anew.
        connections[alias].close()
        state.down, state.replayed = True, None
        return state
    state.down, state.replayed, state.lag = False, lsn_parse(replayed), float(lag or 0)
    return state


def _usable(alias: str, floor: int | None) -> bool:
    """May this replica serve a read that must see the WAL position `floor`?"""
    state = _states.get(alias)
    fresh = state is not None and (
        time.monotonic() - state.checked < settings.DATABASE_REPLICA_CHECK_SECONDS
    )
    if state is None or not fresh:
        state = _check(alias)
    elif floor is not None and not state.down and (state.replayed or 0) < floor:
        state = _check(alias)  # it may have replayed this far since: ask once more
    reason = ""
    if state.down or state.replayed is None:
        reason = "down"
    elif state.lag > settings.DATABASE_REPLICA_MAX_LAG_SECONDS:
        reason = "lagging"
    elif floor is not None and state.replayed < floor:
        reason = "behind"
    if reason:
        replica_skipped.labels(alias, reason).inc()
    # Log a change of health once, not every request; "behind" is the rule working.
    health = reason if reason in ("down", "lagging") else ""
    if health != (state.reason if state.reason in ("down", "lagging") else ""):
        if health:
            log.warning("replica %s skipped: %s (lag %.1f s)", alias, health, state.lag)
        else:
            log.info("replica %s serves reads again", alias)
    state.reason = reason
    return not reason


def read_alias_for(floor: int | None) -> str:
    """The first replica that may serve a read that must see `floor`, else the primary."""
    for alias in replica_aliases():
        if _usable(alias, floor):
            return alias
    return PRIMARY


def primary_lsn() -> str:
    """The primary's current WAL position (after a commit: at or past it), as text."""
    with connections[PRIMARY].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()::text")
        return str(cursor.fetchone()[0])


def _floor_of(request: HttpRequest) -> int | None:
    values = [lsn_parse(request.headers.get(HEADER)), lsn_parse(request.COOKIES.get(COOKIE))]
    known = [value for value in values if value is not None]
    return max(known) if known else None


@sync_and_async_middleware
def ReplicaReadsMiddleware(  # noqa: N802 (a middleware factory, named as Django's are)
    get_response: Callable[[HttpRequest], Any],
) -> Callable[[HttpRequest], Any]:
    """Chooses where a request's reads go (above) and hands a writer its read-after
    position. Installed only with `DATABASE_REPLICA_URL`; outside SessionMiddleware, so a
    session saved at the request's end is before the position it answers with.

    Under ASGI (the live process) the chain is sync while a middleware inside it is, and
    this one with it; were it all async, reads would stay on the primary (no thread to
    ask a replica from) and a write would still answer with its position."""

    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> HttpResponse:
            response = await get_response(request)
            if request.method not in SAFE_METHODS and request.method != "OPTIONS":
                await sync_to_async(_hand_position)(response)
            return response

        return middleware_async

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.method in SAFE_METHODS:
            token = read_alias_var.set(read_alias_for(_floor_of(request)))
            try:
                return get_response(request)
            finally:
                read_alias_var.reset(token)
        response = get_response(request)
        if request.method != "OPTIONS":
            _hand_position(response)
        return response

    return middleware


def _hand_position(response: HttpResponse) -> None:
    if not replica_aliases():
        return
    try:
        position = primary_lsn()
    except DatabaseError:
        return  # the primary is gone: the answer (a 503) says so already
    response[HEADER] = position
    response.set_cookie(
        COOKIE,
        position,
        max_age=settings.DATABASE_REPLICA_READ_AFTER_SECONDS,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
