"""Club ratings as a projection: a period's inputs read from the events (the tournament's
stream and the games' facts about its matches), the club's settings from its own stream,
and the rows written from the one pure computation (`tournaments.domain.glicko2`), whether
a period is added at the end (incremental), the club is re-rated from a period on, or
everything is rebuilt (`rebuild.py`). All of it runs in the caller's transaction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count

import eventstore
from games.selectors import MatchRatingFacts, match_rating_facts
from players.models import Club
from tournaments.domain.glicko2 import (
    ClubRatings,
    PeriodEntry,
    PeriodGame,
    Rating,
    RatingSettings,
    club_rate,
    period_apply,
    ratings_now,
    state_after,
)
from tournaments.domain.rating_periods import (
    RerateCause,
    rated_games,
    rerated_by,
    tournament_period,
)
from tournaments.models import Tournament
from tournaments.projections import standings_from_events, tournament_tiebreaks
from tournaments.ratings.models import ClubPeriod, ClubRating, RatingEntry

# The club's own stream and its one event type so far.
SETTINGS_CHANGED = "ClubRatingSettingsChanged"


def club_stream_id(club_id: int) -> str:
    return f"club-{club_id}"


def iso(value: dt.datetime) -> str:
    """An instant as the API writes it (UTC, ending in Z)."""
    text = value.astimezone(dt.UTC).isoformat()
    return text.replace("+00:00", "Z")


# --- reading the events ----------------------------------------------------------------------


@dataclass(frozen=True)
class ClubSettings:
    """The club's rating settings and every change of them, from the club's stream."""

    settings: RatingSettings
    changes: tuple[RerateCause, ...]


def club_settings_from_events(*, club_id: int) -> ClubSettings:
    events = eventstore.load(stream_id=club_stream_id(club_id))
    changes = [e for e in events if e.type == SETTINGS_CHANGED]
    settings = RatingSettings.from_dict(changes[-1].data["new"]) if changes else RatingSettings()
    causes = tuple(
        RerateCause(e.position, iso(e.recorded_at), "club rating settings changed") for e in changes
    )
    return ClubSettings(settings, causes)


def period_inputs(
    *,
    tournament: Tournament,
    events: list[eventstore.RecordedEvent] | None = None,
    facts: Mapping[str, MatchRatingFacts] | None = None,
) -> dict[str, Any] | None:
    """A finished tournament's period as the events say (the fields of a ClubPeriod), or
    None while it has not finished. `events` (its stream) and `facts` (of its matches) may
    be given by a caller that read them in bulk (the rebuild)."""
    if events is None:
        events = eventstore.load(stream_id=tournament.stream_id)
    period = tournament_period(events)
    if period.finished_position is None:
        return None
    if facts is None:
        facts = match_rating_facts(match_ids=[r.match for r in period.results if r.match])
    games = rated_games(period, facts)
    lines, _ = standings_from_events(
        events=events, tiebreaks=tournament_tiebreaks(tournament=tournament)
    )
    return {
        "finished_position": period.finished_position,
        "finished_at": period.finished_at,
        "source_version": events[-1].version,
        "games": [[g.winner, g.loser] for g in games],
        "results": [
            [r.player1, r.player2, r.winner] for r in period.results if r.player2 is not None
        ],
        "standings": [[line.player, line.rank, line.match_wins] for line in lines],
        "causes": [
            {"position": c.position, "at": iso(c.at), "reason": c.reason} for c in period.causes
        ],
    }


# --- computing and writing -------------------------------------------------------------------


def club_periods(*, club_id: int) -> list[ClubPeriod]:
    """The club's periods in order, with what rating them needs (not their standings)."""
    rows = ClubPeriod.objects.filter(club_id=club_id).order_by("finished_position")
    return list(rows.defer("results", "standings"))


def _games(period: ClubPeriod) -> list[PeriodGame]:
    return [PeriodGame(w, lo) for w, lo in period.games]


def club_rerated(periods: Sequence[ClubPeriod], club: ClubSettings) -> list[list[RerateCause]]:
    """For each period (in order), the causes that re-rated it (`rerated_by`)."""
    causes = [[RerateCause(c["position"], c["at"], c["reason"]) for c in p.causes] for p in periods]
    return rerated_by([p.finished_position for p in periods], causes, club.changes)


_ENTRY_COLUMNS = (
    "club_id", "tournament_id", "player_id", "finished_position", "finished_at",
    "rating_before", "rd_before", "volatility_before", "rating", "rd", "volatility",
)  # fmt: skip


def _entry_values(club_id: int, period: ClubPeriod, entry: PeriodEntry) -> tuple[Any, ...]:
    """One history row: the columns of `_ENTRY_COLUMNS`."""
    return (
        club_id,
        period.tournament_id,
        entry.player,
        period.finished_position,
        period.finished_at,
        entry.before.rating,
        entry.before.rd,
        entry.before.volatility,
        entry.after.rating,
        entry.after.rd,
        entry.after.volatility,
    )


# The history columns' types for a binary COPY (`_ENTRY_COLUMNS`' order).
_COPY_TYPES = ["int8", "int8", "int8", "int8", "timestamptz"] + ["float8"] * 6


def _entries_write(rows: list[tuple[Any, ...]]) -> None:
    """Insert history rows. On PostgreSQL with one binary COPY: re-rating a club rewrites
    every entry after the corrected period (about 20,000 rows for 400 periods of 50
    players); `bulk_create` spent most of its time adapting its parameter arrays, a COPY
    of text built here most of its own formatting floats and the server parsing them
    (bench/README.md has the figures)."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        RatingEntry.objects.bulk_create(
            [RatingEntry(**dict(zip(_ENTRY_COLUMNS, r, strict=True))) for r in rows],
            batch_size=1000,
        )
        return
    table = RatingEntry._meta.db_table
    sql = f"COPY {table} ({', '.join(_ENTRY_COLUMNS)}) FROM STDIN (FORMAT BINARY)"
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's own cursor, inside Django's transaction
        with raw.copy(sql) as copy:
            copy.set_types(_COPY_TYPES)
            for row in rows:
                copy.write_row(row)


def _current_write(club_id: int, state: ClubRatings) -> None:
    ClubRating.objects.filter(club_id=club_id).delete()
    ClubRating.objects.bulk_create(
        [
            ClubRating(
                club_id=club_id,
                player_id=player,
                rating=r.rating,
                rd=r.rd,
                volatility=r.volatility,
                matches=state.matches.get(player, 0),
                periods=state.periods.get(player, 0),
            )
            for player, r in state.current.items()
        ],
        batch_size=2000,
    )


def _state_before(
    club_id: int, periods: Sequence[ClubPeriod], index: int, settings: RatingSettings
) -> ClubRatings:
    """The club's ratings after its periods before `index`, restored from their stored
    history rows (written by the same computation) instead of computed again: a correction
    of last week's evening re-rates one period, not the club's whole past. Each player's
    latest row (PostgreSQL: DISTINCT ON, one row a player) and their count of rows."""
    if index <= 0:
        return ClubRatings()
    order = {p.finished_position: i for i, p in enumerate(periods[:index])}
    rows = RatingEntry.objects.filter(
        club_id=club_id, finished_position__lt=periods[index].finished_position
    )
    columns = ("player_id", "finished_position", "rating", "rd", "volatility")
    if connection.features.can_distinct_on_fields:
        rows_latest = rows.order_by("player_id", "-finished_position").distinct("player_id")
    else:
        rows_latest = rows.order_by("finished_position")  # the last one of each stays
    latest: dict[int, tuple[int, Rating]] = {}
    for player, position, rating, rd, volatility in rows_latest.values_list(*columns):
        if position not in order:  # a history row of no period: compute from the first
            return _computed_before(periods, index, settings)
        latest[player] = (order[position], Rating(rating, rd, volatility))
    played = dict(
        rows.order_by().values("player_id").annotate(n=Count("pk")).values_list("player_id", "n")
    )
    matches: dict[int, int] = {}
    for period in periods[:index]:
        for winner, loser in period.games:
            if winner != loser:
                matches[winner] = matches.get(winner, 0) + 1
                matches[loser] = matches.get(loser, 0) + 1
    return state_after(latest, played, matches, last=index - 1)


def _computed_before(
    periods: Sequence[ClubPeriod], index: int, settings: RatingSettings
) -> ClubRatings:
    """The ratings after the periods before `index`, computed from their inputs."""
    state = ClubRatings()
    for i, period in enumerate(periods[:index]):
        period_apply(state, _games(period), settings, period=i)
    state.entries.clear()
    return state


def club_rerate_in_tx(*, club_id: int, from_index: int = 0) -> ClubRatings:
    """Re-rate the club from its period `from_index` on: the ratings before it restored
    from the history (`_state_before`), the periods from it computed again from their
    stored inputs, their history rewritten, and the current ratings."""
    periods = club_periods(club_id=club_id)
    club = club_settings_from_events(club_id=club_id)
    from_index = max(0, min(from_index, len(periods)))
    start = _state_before(club_id, periods, from_index, club.settings)
    state = club_rate((_games(p) for p in periods[from_index:]), club.settings, state=start)
    if from_index < len(periods):
        rewritten = [p.tournament_id for p in periods[from_index:]]
        RatingEntry.objects.filter(club_id=club_id, tournament_id__in=rewritten).delete()
    elif not periods:
        RatingEntry.objects.filter(club_id=club_id).delete()
    _entries_write([_entry_values(club_id, periods[e.period], e) for e in state.entries])
    _current_write(club_id, state)
    return state


def club_period_append_in_tx(*, club_id: int, period: ClubPeriod, index: int) -> None:
    """The incremental path: `period` is the club's latest; rate it from the current
    ratings (the same `period_apply` as a full computation) and write its entries."""
    rows = ClubRating.objects.filter(club_id=club_id)
    state = ClubRatings(
        current={r.player_id: Rating(r.rating, r.rd, r.volatility) for r in rows},
        matches={r.player_id: r.matches for r in rows},
        periods={r.player_id: r.periods for r in rows},
        as_of={r.player_id: index - 1 for r in rows},  # the rows are as of the last period
        last=index - 1,
    )
    club = club_settings_from_events(club_id=club_id)
    entries = period_apply(state, _games(period), club.settings, period=index)
    ratings_now(state, club.settings)
    RatingEntry.objects.filter(club_id=club_id, tournament_id=period.tournament_id).delete()
    _entries_write([_entry_values(club_id, period, e) for e in entries])
    _current_write(club_id, state)


def commit_without_waiting_in_tx() -> None:
    """Let this transaction's commit return before its WAL is flushed to disk
    (PostgreSQL's `synchronous_commit = off`, for this transaction only). Only for a
    transaction that writes nothing but these projections, with their guard: a crash may
    lose it whole (never part of it), and then beat's reconciler derives it again from the
    events. A re-rating writes some 20,000 rows; waiting for their flush was a third of
    its time on a busy machine (bench/README.md)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def club_lock(*, club_id: int) -> Club:
    """The club's row, locked: one ratings computation of a club at a time."""
    return Club.objects.select_for_update().get(pk=club_id)
