"""Erasing a person (GDPR article 17; issue 34; docs/operators/privacy.md).

`player_erase` runs in one transaction:
1. the texts kept outside the log (eventstore.personal) that the person wrote, or that name
   them (their name, username or e-mail, case-insensitive), are erased: text and salt;
2. events that hold those in clear (written before personal data left the log) are
   redacted (eventstore.redaction): the fields removed, a sealed `Redacted` record per
   stream; so are the request ids of the events the person acted in;
3. the account: username `erased-<user id>`, no e-mail or names, no usable password,
   inactive; its access and DRF tokens, login codes, sessions, idempotency records and
   failed-login records deleted; webhook delivery logs naming them deleted;
4. the player is named "Erased player #N" (translated when read: players.models), every
   result kept; read models, snapshots and remembered states of the streams touched are
   rebuilt from the events, which now read without the person;
5. the erasure itself is the event `PlayerErased` on "erasure-<player id>": who erased,
   when, why (the reason kept outside the log like any text), the counts; no personal data.

Who may: staff, and the organisers of a club the player belongs to (`player_erase_allowed`).
A second erase of the same player is refused with 409 `already_erased`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.sessions.models import Session
from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext_noop
from rest_framework.authtoken.models import Token

import eventstore
from core.errors import ConflictError, NotFoundError, PermissionDeniedError, ValidationError
from core.models import AccessToken, IdempotencyRecord
from core.text import free_text_check
from core.transactions import write_service
from games.services import match_personal_data_erase_in_tx
from players.models import LoginCode, Player, erased_name
from tournaments.federation.services import federation_members_erase_in_tx
from tournaments.followed import tournament_followed_forget
from tournaments.models import Tournament
from tournaments.privacy.selectors import player_erase_allowed
from tournaments.projections import tournament_rebuild_in_tx
from tournaments.repository import tournament_states_forget
from tournaments.webhooks.models import Delivery

ERASED = "PlayerErased"
ERASURE_PREFIX = "erasure-"
# A shorter name or login would match too many unrelated words in others' texts.
MIN_TERM_LENGTH = 3


@dataclass(frozen=True)
class Erasure:
    player_id: int
    erased_at: Any
    texts_erased: int
    events_redacted: int
    streams: int
    event_position: int


@write_service
def player_erase(
    *, player_id: Any, by: AbstractBaseUser | None, reason: str = "", confirm: bool = True
) -> Erasure:
    """Erase the player (module docstring). `by`: who erases (None: an operator's command,
    recorded as "system"), checked with `player_erase_allowed` when given."""
    if confirm is not True:
        raise ValidationError(
            gettext_noop("Erasing cannot be undone: send confirm: true."), code="confirm_required"
        )
    free_text_check(reason)
    try:
        player = (
            Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player_id)
        )
    except (Player.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError(gettext_noop("no such player"), code="player_not_found") from exc
    if by is not None and not player_erase_allowed(user=by, player=player):
        raise PermissionDeniedError(
            gettext_noop("only staff and the organisers of the player's clubs may erase them"),
            code="erase_forbidden",
        )
    if player.erased_at is not None:
        raise ConflictError(
            gettext_noop("player %(player)s is already erased"),
            code="already_erased",
            params={"player": player.pk},
        )
    user = player.user
    terms = _terms(player, user)
    authors = [f"player:{player.pk}"] + ([f"user:{user.pk}"] if user is not None else [])
    who = f"user:{by.pk}" if by is not None else "system"
    erasure_stream = f"{ERASURE_PREFIX}{player.pk}"

    texts, streams = eventstore.personal_texts_erase(authors=authors, containing=terms)
    redacted = 0
    for stream_id, redactions in _redactions(terms, authors).items():
        eventstore.redact_in_tx(
            stream_id=stream_id, redactions=redactions, by=who, erasure=erasure_stream
        )
        redacted += len(redactions)
        streams.add(stream_id)

    _account_erase(player, user, terms)
    federation_members_erase_in_tx(player_id=player.pk)
    match_personal_data_erase_in_tx(player_id=player.pk, terms=terms, stream_ids=streams)
    _tournaments_rebuild(streams)
    now = timezone.now()
    Player.objects.filter(pk=player.pk).update(name=erased_name(player.pk), erased_at=now)
    event = eventstore.append(
        stream_id=erasure_stream,
        expected_version=eventstore.stream_version(stream_id=erasure_stream),
        events=[
            eventstore.NewEvent(
                type=ERASED,
                data={
                    "player": player.pk,
                    "user": user.pk if user is not None else None,
                    "by": by.pk if by is not None else None,
                    "reason": _scrub(reason, terms, player.pk),
                    "events_redacted": redacted,
                    "streams": len(streams),
                },
                metadata={"actor": who},
                personal=("reason",),
                author=who,
            )
        ],
    )[0]
    return Erasure(
        player_id=player.pk,
        erased_at=now,
        texts_erased=texts,
        events_redacted=redacted,
        streams=len(streams),
        event_position=event.position,
    )


def _terms(player: Player, user: AbstractBaseUser | None) -> list[str]:
    found = {player.name}
    if user is not None:
        first, last = getattr(user, "first_name", ""), getattr(user, "last_name", "")
        found |= {user.get_username(), getattr(user, "email", ""), first, last, f"{first} {last}"}
    return sorted(t.strip() for t in found if t and len(t.strip()) >= MIN_TERM_LENGTH)


def _scrub(text: str, terms: Iterable[str], player_id: int) -> str:
    """The erasure's own reason, without the person's name in it."""
    for term in terms:
        text = re.sub(re.escape(term), erased_name(player_id), text, flags=re.IGNORECASE)
    return text


# --- old events ------------------------------------------------------------------------------


def _redactions(terms: list[str], actors: list[str]) -> dict[str, list[Any]]:
    """By stream, the events that hold one of `terms` in clear, each without it; and the
    events the person acted in, without the request id their client chose (it links their
    requests to log lines)."""
    folded = tuple(t.casefold() for t in terms)
    out: dict[str, list[Any]] = defaultdict(list)
    for event in eventstore.events_naming(terms=terms, actors=actors):
        removed: list[str] = []
        data = _scrubbed(event.data, folded, "data", removed)
        metadata = _scrubbed(event.metadata, folded, "metadata", removed)
        if metadata.get("actor") in actors and metadata.get("request_id"):
            metadata = {k: v for k, v in metadata.items() if k != "request_id"}
            removed.append("metadata.request_id")
        if removed:
            out[event.stream_id].append(
                eventstore.Redaction(
                    version=event.version, data=data, metadata=metadata, removed=tuple(removed)
                )
            )
    return out


def _scrubbed(value: Any, terms: tuple[str, ...], path: str, removed: list[str]) -> Any:
    """`value` with every string that holds one of `terms` emptied ("username" keys dropped:
    the id beside them names the person), each path listed in `removed`."""
    if isinstance(value, str):
        if any(term in value.casefold() for term in terms):
            removed.append(path)
            return ""
        return value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            new = _scrubbed(item, terms, f"{path}.{key}", removed)
            if key == "username" and new != item:
                continue
            out[key] = new
        return out
    if isinstance(value, list):
        return [_scrubbed(item, terms, f"{path}[{i}]", removed) for i, item in enumerate(value)]
    return value


# --- rows ------------------------------------------------------------------------------------


def _account_erase(player: Player, user: AbstractBaseUser | None, terms: list[str]) -> None:
    if terms:
        named = Q(pk__in=[])
        for term in terms:
            named |= Q(_payload__icontains=term)
        Delivery.objects.annotate(_payload=Cast("payload", TextField())).filter(named).delete()
    LoginCode.objects.filter(player=player).delete()
    if user is None:
        return
    username = user.get_username()
    AccessToken.objects.filter(user=user).delete()
    IdempotencyRecord.objects.filter(user=user).delete()
    _drf_tokens_delete(user)
    _sessions_delete(user)
    _failed_logins_delete(username)
    model = get_user_model()
    model.objects.filter(pk=user.pk).update(
        username=f"erased-{user.pk}",
        email="",
        first_name="",
        last_name="",
        is_active=False,
        is_staff=False,
        is_superuser=False,
    )
    user.refresh_from_db()
    user.set_unusable_password()
    user.save(update_fields=["password"])


def _drf_tokens_delete(user: AbstractBaseUser) -> None:
    Token.objects.filter(user=user).delete()


def _sessions_delete(user: AbstractBaseUser) -> None:
    """The database sessions signed in as the user (a session elsewhere dies anyway: the
    password hash it was made with changed, and the user is inactive)."""
    pk = str(user.pk)
    gone = [
        s.pk
        for s in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(s.get_decoded().get("_auth_user_id")) == pk
    ]
    Session.objects.filter(pk__in=gone).delete()


def _failed_logins_delete(username: str) -> None:
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=username).delete()


def _tournaments_rebuild(streams: set[str]) -> None:
    ids = [int(s.split("-", 1)[1]) for s in streams if re.fullmatch(r"tournament-\d+", s)]
    for tournament in Tournament.objects.filter(pk__in=ids).order_by("pk"):
        eventstore.snapshot_delete(stream_id=tournament.stream_id)
        tournament_rebuild_in_tx(tournament=tournament)
    tournament_states_forget()
    tournament_followed_forget()
