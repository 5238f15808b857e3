"""The players' notices (issue 40): a tournament's new events turned into notices (one per
event, kind and player: `Notice.key`), each e-mailed at most once, after commit, through
the outbox job `tournaments.notices_send`; the reminder the day before; each player's
opt-outs.

At most once: a notice's e-mail is claimed (`emailed_at` set where it was empty) before it
is sent, so a job run twice, or two workers racing, send it once; a crash between the
claim and the send loses that e-mail (the notice stays listed on /me/). Names and times
are rendered when sent, in the player's language and the tournament's time zone; the
notice row keeps ids and numbers only."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

import eventstore
from core.transactions import write_service
from players.models import Player
from tournaments.jobs import NOTICE_EVENT_TYPES
from tournaments.models import Registration, Round, Tournament
from tournaments.notices.models import Notice, NoticeOptOut

log = logging.getLogger(__name__)

_SIMPLE = {
    "PlayerRegistered": Notice.Kind.REGISTERED,
    "PlayerWaitlisted": Notice.Kind.WAITLISTED,
    "PlayerPromoted": Notice.Kind.PROMOTED,
}


def _notices_of(event: Any) -> Iterator[tuple[str, int, dict[str, Any]]]:
    """(kind, player id, data) of each notice a stored event calls for."""
    kind = _SIMPLE.get(event.type)
    if kind is not None:
        yield kind, event.data["player"], {"cause": event.data.get("cause", "")}
        return
    if event.type in ("RoundPaired", "RoundRepaired"):
        for p in event.data.get("pairings", []):
            seats = (p.get("player1"), p.get("player2"))
            for me, other in (seats, seats[::-1]):
                if me is not None:
                    data = {
                        "round": event.data["round"],
                        "table": p.get("table"),
                        "opponent": other,
                    }
                    yield Notice.Kind.PAIRED, me, data


def notice_language(player: Player, tournament: Tournament) -> str:
    """The player's own language, else the tournament's, its club's, the site's."""
    club = tournament.club
    return (
        player.language
        or tournament.language
        or (club.language if club is not None else "")
        or settings.LANGUAGE_CODE
    )


def _opted_out(player_id: int, kind: str) -> bool:
    return NoticeOptOut.objects.filter(player_id=player_id, kind=kind).exists()


def _start_of(tournament: Tournament, number: int | None) -> dt.datetime | None:
    if number is None:
        return tournament.starts_at
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None:
        return None
    return round_.scheduled_at or round_.clock_started_at or round_.paired_at


def notice_text(notice: Notice) -> dict[str, str]:
    """The notice in words ({"subject", "body"}), in the active language and the
    tournament's zone."""
    tournament = notice.tournament
    data = dict(notice.data)
    opponent = Player.objects.filter(pk=data.get("opponent")).first()
    start = _start_of(tournament, data.get("round") if notice.kind == "paired" else None)
    context = {
        "notice": notice,
        "kind": notice.kind,
        "tournament": tournament,
        "player": notice.player,
        "data": data,
        "opponent": opponent,
        "start": timezone.localtime(start, tournament.zone) if start else None,
        "zone": tournament.time_zone,
    }
    with timezone.override(tournament.zone):  # the date filter shows the tournament's time
        subject = render_to_string("notices/subject.txt", context).strip()
        body = render_to_string("notices/body.txt", context).strip()
    lines = [line for line in body.splitlines() if line.strip()]
    return {"subject": subject, "body": body, "summary": "\n".join(lines[1:-1])}


def notice_email_send(notice: Notice) -> bool:
    """E-mail the notice if nobody has and the player wants it: claimed first (at most
    once), then sent in the player's language. True if this call sent it."""
    user = notice.player.user
    if user is None or not user.email or _opted_out(notice.player_id, notice.kind):
        return False
    claimed = Notice.objects.filter(pk=notice.pk, emailed_at__isnull=True).update(
        emailed_at=timezone.now()
    )
    if not claimed:
        return False
    with translation.override(notice_language(notice.player, notice.tournament)):
        text = notice_text(notice)
    try:
        send_mail(text["subject"], text["body"], None, [user.email])
    except Exception:  # noqa: BLE001 - the notice is listed on /me/; the mail is lost
        log.warning("notice %s: the e-mail could not be sent", notice.key, exc_info=True)
        return False
    return True


def _record(*, tournament: Tournament, key: str, kind: str, player_id: int, data: Any) -> Notice:
    notice, _ = Notice.objects.get_or_create(
        key=key,
        defaults={"tournament": tournament, "kind": kind, "player_id": player_id, "data": data},
    )
    return notice


def tournament_notices_send(*, tournament_id: int, first: int, last: int) -> int:
    """The job after a save: the notices of the tournament's events `first`..`last`
    (stream versions), recorded once each and e-mailed at most once. Returns how many
    e-mails this run sent (a repeat: 0)."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    events = eventstore.load(stream_id=tournament.stream_id, after_version=first - 1)
    notices = []
    with transaction.atomic():
        for event in events:
            if event.version > last or event.type not in NOTICE_EVENT_TYPES:
                continue
            for kind, player_id, data in _notices_of(event):
                key = f"{tournament.stream_id}:{event.version}:{kind}:{player_id}"
                notices.append(
                    _record(
                        tournament=tournament, key=key, kind=kind, player_id=player_id, data=data
                    )
                )
    ids = [n.pk for n in notices]
    fresh = Notice.objects.filter(pk__in=ids).select_related("player__user", "tournament__club")
    return sum(notice_email_send(n) for n in fresh)


def tournament_reminders_send(*, now: dt.datetime | None = None) -> int:
    """Beat, hourly: a reminder to everyone holding a place in a tournament that starts
    within the next day (one a tournament, player and start day)."""
    now = now or timezone.now()
    soon = Tournament.objects.select_related("club").filter(
        status=Tournament.Status.REGISTRATION, starts_at__gt=now,
        starts_at__lte=now + dt.timedelta(days=1),
    )  # fmt: skip
    sent = 0
    for tournament in soon:
        day = tournament.starts_at.date().isoformat()
        held = Registration.objects.filter(
            tournament=tournament, status__in=["registered", "checked_in"]
        ).values_list("player_id", flat=True)
        for player_id in held:
            key = f"reminder:{tournament.pk}:{day}:{player_id}"
            notice = _record(
                tournament=tournament, key=key, kind=Notice.Kind.REMINDER, player_id=player_id,
                data={},
            )  # fmt: skip
            sent += notice_email_send(notice)
    return sent


@write_service
def player_notice_opt_outs_set(*, player: Player, kinds: list[str]) -> list[str]:
    """The kinds of notice the player wants no e-mail of (the others they get)."""
    wanted = {k for k in kinds if k in Notice.Kind.values}
    NoticeOptOut.objects.filter(player=player).exclude(kind__in=wanted).delete()
    for kind in wanted:
        NoticeOptOut.objects.get_or_create(player=player, kind=kind)
    return sorted(wanted)


def player_notices(*, player: Player, limit: int = 30) -> list[Notice]:
    """The player's latest notices, newest first."""
    return list(Notice.objects.filter(player=player).select_related("tournament")[:limit])


def player_notice_opt_outs(*, player: Player) -> set[str]:
    return set(NoticeOptOut.objects.filter(player=player).values_list("kind", flat=True))
