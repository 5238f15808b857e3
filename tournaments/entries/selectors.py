"""Calendar feeds (issue 40), as iCalendar (RFC 5545, the `icalendar` library): a club's
upcoming tournaments, and a player's own rounds with table and opponent. Each event in
its tournament's time zone (DTSTART with TZID; the zone's VTIMEZONE included), so a
calendar app shows it at the club's wall-clock time wherever the reader is."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext
from icalendar import Calendar, Event

from players.models import Club, Player
from tournaments.entries.models import CalendarFeed
from tournaments.models import Pairing, Tournament

PRODID = "-//hollywood-gin//calendar//EN"
DEFAULT_LENGTH = dt.timedelta(hours=3)  # a tournament without a round duration
ROUND_LENGTH = dt.timedelta(hours=1)


def _calendar(name: str) -> Calendar:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    return cal


def _event(uid: str, summary: str, start: dt.datetime, length: dt.timedelta, zone: Any) -> Event:
    event = Event()
    event.add("uid", uid)
    event.add("summary", summary)
    event.add("dtstamp", timezone.now())
    local = start.astimezone(zone)
    event.add("dtstart", local)
    event.add("dtend", local + length)
    return event


def _finish(cal: Calendar) -> bytes:
    cal.add_missing_timezones()
    return bytes(cal.to_ical())


def club_calendar(*, club: Club, user: Any) -> bytes:
    """The club's tournaments from yesterday on (public ones; its organisers also see the
    private ones), each at its start in its zone."""
    since = timezone.now() - dt.timedelta(days=1)
    shown = Q(is_public=True)
    if (
        user is not None
        and user.is_authenticated
        and (user.is_staff or club.organisers.filter(pk=user.pk).exists())
    ):
        shown = Q()
    tournaments = Tournament.objects.filter(shown, club=club, starts_at__gte=since)
    cal = _calendar(club.name)
    for t in tournaments.order_by("starts_at", "pk"):
        length = (t.round_duration or ROUND_LENGTH) * (t.rounds_planned or 3)
        event = _event(f"tournament-{t.pk}@hollywood-gin", t.name, t.starts_at, length, t.zone)
        event.add("url", f"/tournaments/{t.pk}/")
        cal.add_component(event)
    return _finish(cal)


def player_calendar(*, feed: CalendarFeed) -> bytes:
    """The player's rounds (table and opponent) and the tournaments they hold a place in
    that have not started."""
    player = feed.player
    with translation.override(player.language or settings.LANGUAGE_CODE):
        return _player_calendar(player)


def _player_calendar(player: Player) -> bytes:
    cal = _calendar(player.name)
    pairings = (
        Pairing.objects.filter(Q(player1=player) | Q(player2=player))
        .select_related("round__tournament", "player1", "player2")
        .order_by("round__tournament_id", "round__number", "table")
    )
    for p in pairings:
        t, number = p.round.tournament, p.round.number
        start = p.round.scheduled_at or p.round.clock_started_at or p.round.paired_at
        if start is None:
            continue
        other = p.player2 if p.player1_id == player.pk else p.player1
        values = {"name": t.name, "round": number, "table": p.table}
        if other is not None:
            summary = gettext("%(name)s: round %(round)s, table %(table)s, against %(opponent)s")
            values["opponent"] = other.name
        else:
            summary = gettext("%(name)s: round %(round)s, a bye")
        summary %= values
        event = _event(
            f"pairing-{t.pk}-{number}-{p.table}-{player.pk}@hollywood-gin", summary, start,
            t.round_duration or ROUND_LENGTH, t.zone,
        )  # fmt: skip
        event.add("location", gettext("table %(table)s") % {"table": p.table})
        cal.add_component(event)
    entered = Tournament.objects.filter(
        registrations__player=player,
        registrations__status__in=["registered", "checked_in"],
        status=Tournament.Status.REGISTRATION,
        starts_at__isnull=False,
    )
    for t in entered:
        cal.add_component(
            _event(
                f"tournament-{t.pk}-{player.pk}@hollywood-gin",
                t.name,
                t.starts_at,
                DEFAULT_LENGTH,
                t.zone,
            )  # fmt: skip
        )
    return _finish(cal)


def calendar_feed_by_token(*, token: str) -> CalendarFeed | None:
    if not token or len(token) > 64:
        return None
    return CalendarFeed.objects.select_related("player").filter(token=token).first()
