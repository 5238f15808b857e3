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
import unicodedata
from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

import eventstore
from core.localdates import active_language, format_local, isolate, persian_digits
from core.transactions import write_service
from games.selectors.table_entries import EntryStatus, table_entry_of
from players.models import Player
from tournaments.jobs import NOTICE_EVENT_TYPES
from tournaments.models import Pairing, Registration, Round, Tournament
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
    """The notice in words ({"subject", "body", "summary", "link"}), in the active language and the
    tournament's zone: in Persian with Persian digits, Solar Hijri dates (unless the club
    turned them off) and every name set apart from the sentence's direction."""
    tournament = notice.tournament
    data = dict(notice.data)
    persian = active_language() == "fa"
    names = {
        p.pk: p.name
        for p in Player.objects.filter(
            pk__in=[data.get(k) for k in ("opponent", "by", "knocker") if data.get(k)]
        )
    }

    def name(text: str) -> str:
        """Set apart where its direction may differ from the sentence's: in a Persian
        notice, and a right-to-left name in any other."""
        if text and (persian or any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)):
            return isolate(text)
        return text

    def number(value: Any) -> str:
        text = "" if value is None else str(value)
        return persian_digits(text) if persian else text

    start = None
    if notice.kind not in (Notice.Kind.CONFIRM, Notice.Kind.RULED):
        start = _start_of(tournament, data.get("round") if notice.kind == "paired" else None)
    when = ""
    if start is not None:
        club = tournament.club
        jalali_dates = getattr(club, "jalali_dates", True) if club is not None else True
        when = number(
            format_local(timezone.localtime(start, tournament.zone), jalali_dates=jalali_dates)
        )
    match = data.get("match")
    page = "tables" if notice.kind == Notice.Kind.CONFIRM else "matches"
    numbers = {k: v for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)}
    context = {
        "notice": notice,
        "kind": notice.kind,
        "data": data,
        "n": {k: number(v) for k, v in numbers.items()},
        "tname": name(tournament.name),
        "pname": name(notice.player.name),
        "opponent": data.get("opponent") in names,
        "oname": name(names.get(data.get("opponent"), "")),
        "bname": name(names.get(data.get("by"), "")),
        "kname": name(names.get(data.get("knocker"), "")),
        "when": when,
        "zone": tournament.time_zone,
        "link": f"/{page}/{match}/" if match else "",
    }
    subject = render_to_string("notices/subject.txt", context).strip()
    body = render_to_string("notices/body.txt", context).strip()
    # The summary (a page's or the API's list): the body between greeting and footer, the
    # page's address apart (`link`: a page shows it as a link, not as text).
    link = context["link"]
    lines = [line for line in body.splitlines() if line.strip()]
    summary = [line for line in lines[1:-1] if not (link and link in line)]
    return {"subject": subject, "body": body, "summary": "\n".join(summary), "link": link}


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


def notice_record(
    *, tournament: Tournament, key: str, kind: str, player_id: int, data: Any
) -> Notice:
    """The notice of that key, recorded now unless a run before this one did."""
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
    events = eventstore.load(
        stream_id=tournament.stream_id, after_version=first - 1, up_to_version=last
    )
    notices = []
    with transaction.atomic():
        for event in events:
            if event.type not in NOTICE_EVENT_TYPES:
                continue
            for kind, player_id, data in _notices_of(event):
                key = f"{tournament.stream_id}:{event.version}:{kind}:{player_id}"
                notices.append(
                    notice_record(
                        tournament=tournament, key=key, kind=kind, player_id=player_id, data=data
                    )
                )
    return _email_each(notices)


def _email_each(notices: list[Notice]) -> int:
    """E-mail each of these notices that nobody has yet (read afresh, with who gets them):
    how many this call sent."""
    fresh = Notice.objects.filter(pk__in=[n.pk for n in notices]).select_related(
        "player__user", "tournament__club"
    )
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
            notice = notice_record(
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


def notice_kinds() -> list[tuple[str, str]]:
    """Every kind of notice with its label (in the active language), in the order shown."""
    return [(kind, str(label)) for kind, label in Notice.Kind.choices]


def player_notice_opt_outs(*, player: Player) -> set[str]:
    return set(NoticeOptOut.objects.filter(player=player).values_list("kind", flat=True))


# --- the notices of a tournament's matches ---------------------------------------------------
# A hand entered at the table that waits for the player's confirmation, and a dispute ruled (a
# disputed table entry settled by an organiser, or a dispute case resolved). The games app
# announces each change after its commit (games.signals); `tournaments.notices.receivers`
# queues the job for a tournament's match only.

# What the job is asked to tell (the games app's change, as the receiver names it).
CONFIRM, ENTRY_RULED, CASE_RULED = "confirm", "entry_ruled", "case_ruled"
# A disputed entry is ruled when an organiser settles it one of these ways.
ENTRY_RULINGS = frozenset(
    {
        EntryStatus.ACCEPTED,
        EntryStatus.REJECTED,
        EntryStatus.AMENDED,
        EntryStatus.STALE,
    }
)


def _told(pairing: Pairing, what: str, ref: int) -> tuple[str, list[int], dict[str, Any]]:
    """(the key's stem, who is told, the data) of one change; no one if it calls for none."""
    match_id = pairing.match_id
    players = [p for p in (pairing.player1_id, pairing.player2_id) if p is not None]
    if what in (CONFIRM, ENTRY_RULED):
        entry = table_entry_of(entry_id=ref, match_id=match_id)
        if entry is None:
            return "", [], {}
        # The hand as entered (games.hand_entries.HandEntry): ids and numbers; names are
        # rendered when sent.
        data = {"entry": entry.pk, "by": entry.entered_by_id, **asdict(entry.as_entry())}
        if what == CONFIRM:
            if entry.status != EntryStatus.PENDING:
                return "", [], {}  # settled before the job ran: nothing waits for anyone
            opponents = [p for p in players if p != entry.entered_by_id]
            return f"entry:{entry.pk}:confirm", opponents, data
        data["outcome"] = entry.status
        return f"entry:{entry.pk}:ruled", players, data
    stream_id = f"match-{match_id}"
    resolved = [
        e
        for e in eventstore.load(stream_id=stream_id, after_version=ref - 1, up_to_version=ref)
        if e.type == "DisputeResolved"
    ]
    if not resolved:
        return "", [], {}
    case = resolved[0].data
    data = {"dispute": case["dispute"], "outcome": case["outcome"]}
    return f"{stream_id}:{ref}:ruled", players, data


def match_notices_send(*, match_id: str, what: str, ref: int) -> int:
    """The job after a match's change (`what`: CONFIRM or ENTRY_RULED with the entry's id,
    CASE_RULED with the DisputeResolved event's version): the notices it calls for,
    recorded once each and e-mailed at most once. Returns the e-mails this run sent."""
    pairing = (
        Pairing.objects.select_related("round__tournament__club").filter(match_id=match_id).first()
    )
    if pairing is None:
        return 0  # a friendly match: no tournament tells anyone
    stem, players, data = _told(pairing, what, ref)
    kind = Notice.Kind.CONFIRM if what == CONFIRM else Notice.Kind.RULED
    data.update(match=str(match_id), round=pairing.round.number, table=pairing.table)
    tournament = pairing.round.tournament
    notices = [
        notice_record(
            tournament=tournament,
            key=f"{stem}:{player_id}",
            kind=kind,
            player_id=player_id,
            data=data,
        )  # fmt: skip
        for player_id in players
    ]
    return _email_each(notices)
