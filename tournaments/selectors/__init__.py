"""Reads about tournaments: visibility, organisers, rounds, pairings, standings, the log;
and (`players`) what the players' pages read: a match's place, a player's evening."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.utils import timezone

import eventstore
from core.errors import NotFoundError
from games.selectors import match_list_followable, match_seat_for, user_can_organise_match
from players.models import Player
from tournaments.domain.brackets import bracket_data
from tournaments.domain.standings import standings_of
from tournaments.domain.state import scheduled_start
from tournaments.followed import TournamentFollowed
from tournaments.models import Pairing, Registration, Round, Standing, Tournament
from tournaments.projections import tournament_tiebreaks
from tournaments.repository import state_of
from tournaments.selectors.players import MatchPlace as MatchPlace  # the players' reads
from tournaments.selectors.players import match_places as match_places
from tournaments.selectors.players import player_pairings as player_pairings
from tournaments.selectors.players import player_standing as player_standing
from tournaments.selectors.players import (
    player_tournament_match_ids as player_tournament_match_ids,
)
from tournaments.selectors.players import player_tournaments as player_tournaments

User = AbstractBaseUser | AnonymousUser | None


def user_can_organise(*, user: User, tournament: Tournament) -> bool:
    """Staff, the tournament's organisers and its club's organisers."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    if tournament.organisers.filter(pk=user.pk).exists():
        return True
    return tournament.club is not None and tournament.club.organisers.filter(pk=user.pk).exists()


def user_may_act_as_player(*, user: User, player: Player) -> bool:
    """Authority over a person's account (issuing a sign-in code acts as the person): staff,
    or an organiser of the club that owns the account. A player of no club is nobody's
    member: the organisers of every tournament they are entered in, and only while all of
    them are, may act for them (a walk-in of one's own evening). Entering someone in one's
    own tournament never gives it (issue 32)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser:
        return True
    if player.club_id is not None:
        return player.club.organisers.filter(pk=user.pk).exists()
    entered = Tournament.objects.filter(registrations__player=player)
    if not entered.exists():
        return False
    not_theirs = entered.exclude(Q(organisers=user) | Q(club__organisers=user))
    return not not_theirs.exists()


def tournament_list_for(*, user: User) -> QuerySet[Tournament]:
    """Public tournaments, plus the private ones the user organises or plays in."""
    qs = Tournament.objects.select_related("club")
    if user is not None and user.is_authenticated and (user.is_staff or user.is_superuser):
        return qs
    if user is None or not user.is_authenticated:
        return qs.filter(is_public=True)
    return qs.filter(
        Q(is_public=True)
        | Q(organisers=user)
        | Q(club__organisers=user)
        | Q(registrations__player__user=user)
    ).distinct()


def matches_followable(*, user: User) -> QuerySet:
    """The matches `user` may follow: see `match_followable`."""
    visible = tournament_list_for(user=user)
    ids = Pairing.objects.filter(round__tournament__in=visible, match__isnull=False)
    return match_list_followable(user=user, also_ids=ids.values("match_id"))


def matches_hidden_from(*, user: User) -> QuerySet:
    """The ids of the matches of private tournaments that `user` may not see (registered
    with games.selectors in TournamentsConfig.ready(): games know nothing of tournaments)."""
    private = Tournament.objects.filter(is_public=False).exclude(
        pk__in=tournament_list_for(user=user).values("pk")
    )
    pairings = Pairing.objects.filter(round__tournament__in=private, match__isnull=False)
    return pairings.values("match_id")


def match_in_public_tournament(*, match_id: Any) -> bool:
    """Whether the match is played in a public tournament (registered with games.selectors
    in TournamentsConfig.ready(): such a match is for anyone to read, signed out too)."""
    return Pairing.objects.filter(match_id=match_id, round__tournament__is_public=True).exists()


def match_dispute_window(*, match_id: Any) -> dt.timedelta | None:
    """The dispute window of the tournament the match is played in (None: no limit, or
    not a tournament match)."""
    pairing = Pairing.objects.filter(match_id=match_id).select_related("round__tournament")
    found = pairing.first()
    return found.round.tournament.dispute_window if found is not None else None


def tournament_stream_heads(*, stream_id: str | None = None) -> list[tuple[str, int]]:
    """(stream id, version the tournament's record holds) of every tournament (or of the
    one with that stream): registered with the event store, which finds a stream cut short
    by them (TournamentsConfig.ready())."""
    tournaments = Tournament.objects.all()
    if stream_id is not None:
        number = stream_id.removeprefix("tournament-")
        if not number.isdigit() or stream_id == number:
            return []
        tournaments = tournaments.filter(pk=int(number))
    rows = tournaments.values_list("pk", "version")
    return [(f"tournament-{pk}", version) for pk, version in rows]


def knockout_dependent_match_in_play(*, match_id: Any, winner: Any) -> tuple | None:
    """(round, table, match id) of the knockout match in play that `winner` of `match_id`
    went on to play, if there is one."""
    pairing = (
        Pairing.objects.filter(match_id=match_id, round__tournament__format="knockout")
        .select_related("round")
        .first()
    )
    if pairing is None or winner is None:
        return None
    later = (
        Pairing.objects.filter(
            round__tournament_id=pairing.round.tournament_id,
            round__number__gt=pairing.round.number,
            status=Pairing.Status.PENDING,
            match__isnull=False,
        )
        .filter(Q(player1_id=winner) | Q(player2_id=winner))
        .select_related("round")
        .order_by("round__number")
        .first()
    )
    if later is None:
        return None
    return (later.round.number, later.table, later.match_id)


def match_followable(*, user: User, match: Any) -> bool:
    """May `user` follow `match` (its page)? Its players and organisers (and staff) may,
    and anyone who may see a tournament the match belongs to."""
    if user_can_organise_match(user=user, match=match):
        return True
    if match_seat_for(user=user, match=match) is not None:
        return True
    visible = tournament_list_for(user=user)
    return Pairing.objects.filter(match_id=match.pk, round__tournament__in=visible).exists()


def tournament_get(*, tournament_id: Any, user: User = None) -> Tournament:
    """The tournament if it exists and `user` may see it (None: no visibility check)."""
    qs = Tournament.objects.select_related("club")
    if user is not None:
        qs = tournament_list_for(user=user)
    try:
        return qs.get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such tournament") from exc


def tournament_language(*, tournament: Tournament) -> str:
    """The tournament's language (prints, the wall screen, a page's last fallback but
    English): its own, else its club's, else "" (English)."""
    club = tournament.club if tournament.club_id else None
    return tournament.language or (club.language if club is not None else "") or ""


def tournament_jalali_dates(*, tournament: Tournament | None) -> bool:
    """Persian pages of the tournament show Solar Hijri dates unless its club turned it off."""
    club = tournament.club if tournament is not None and tournament.club_id else None
    return club.jalali_dates if club is not None else True


def tournament_lock(*, tournament_id: Any) -> Tournament:
    """The tournament row, locked until the end of the caller's transaction."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such tournament") from exc


def tournament_rounds(*, tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.order_by("number")


def tournament_registrations(*, tournament: Tournament) -> QuerySet[Registration]:
    """Its entries with their players, seed order first (the model's order, stable for pages)."""
    return tournament.registrations.select_related("player").order_by("seed", "registered_at", "id")


def tournament_pairings(*, tournament: Tournament, round_number: int | None) -> QuerySet[Pairing]:
    qs = Pairing.objects.filter(round__tournament=tournament).select_related(
        "round", "player1", "player2", "winner", "match"
    )
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    return qs.order_by("round__number", "table")


def pairing_overdue(*, pairing: Pairing, now: dt.datetime | None = None) -> bool:
    """Still unplayed past its round's deadline. The deadline job forfeits an online match
    whose player to move is late; a table match waits for an organiser, who can find it by
    this flag."""
    deadline = pairing.round.deadline
    if pairing.status != Pairing.Status.PENDING or deadline is None:
        return False
    return (now or timezone.now()) > deadline


def pairings_in_play_of(*, tournament: Tournament, player: Any) -> list[Pairing]:
    """The player's pairings whose match is still being played."""
    return list(
        Pairing.objects.filter(
            Q(player1=player) | Q(player2=player),
            round__tournament=tournament,
            status=Pairing.Status.PENDING,
            match__isnull=False,
        ).select_related("player1", "player2", "round")
    )


def results_corrected_after_pairing(*, tournament: Tournament, round_number: int) -> list[dict]:
    """The results of earlier rounds corrected after round `round_number` was (last)
    paired: the organiser may want to re-pair it while none of its matches has started.
    Each: round, table, whether a result stands after, and whether re-pairing was still
    possible when it was corrected."""
    found: list[dict] = []
    for event in tournament_stream_events(tournament=tournament):
        data = event.data
        if event.type in ("RoundPaired", "RoundRepaired") and data.get("round") == round_number:
            found = []  # corrections before this pairing were taken into account
        elif event.type == "ResultCorrected" and data.get("next_round") == round_number:
            found.append(
                {
                    "round": data["round"],
                    "table": data["table"],
                    "withdrawn": data.get("after") is None,
                    "repair_possible": bool(data.get("repair_possible")),
                    "at": event.recorded_at,
                    **_result_change(data.get("before") or {}, data.get("after")),
                }
            )
    return found


def _result_change(before: dict, after: dict | None) -> dict:
    """What a correction changed: "withdrawn" (back in play), "winner", "games" (the
    winner stands) or "points" (only the points: the points-difference tiebreak moves);
    with the games and points before and after."""
    if after is None:
        return {"change": "withdrawn"}
    pair = {
        side: {k: (d.get(f"{k}1", 0), d.get(f"{k}2", 0)) for k in ("games", "points")}
        for side, d in (("before", before), ("after", after))
    }
    if before.get("winner") != after.get("winner"):
        change = "winner"
    elif pair["before"]["games"] != pair["after"]["games"]:
        change = "games"
    else:
        change = "points"
    return {"change": change, **pair}


def results_corrected_of_table(
    *, tournament: Tournament, round_number: int, table: int
) -> list[dict]:
    """The corrections of one table's result made after the next round was paired (the
    dispute page says so): each with that round, whether a result stands after, whether
    re-pairing was still possible, and when."""
    return [
        {
            "next_round": e.data["next_round"],
            "withdrawn": e.data.get("after") is None,
            "repair_possible": bool(e.data.get("repair_possible")),
            "at": e.recorded_at,
        }
        for e in tournament_stream_events(tournament=tournament)
        if e.type == "ResultCorrected"
        and e.data.get("next_round")
        and e.data.get("round") == round_number
        and e.data.get("table") == table
    ]


def tournament_tiebreak_order(*, tournament: Tournament) -> list[str]:
    """The tiebreaks the standings are ranked by, in order (the setting or the default)."""
    return tournament_tiebreaks(tournament=tournament)


def tournament_standings(*, tournament: Tournament) -> list[Standing]:
    """The standings rows in rank order (the total order: pairing, seeding), each with its
    `place` (players equal on every tiebreak share one: standard competition ranking, 1, 2,
    2, 4) and `shared` (whether another row has that place), from the tournament's state."""
    rows = list(tournament.standings.select_related("player").order_by("rank", "player_id"))
    places = tournament_places(tournament=tournament) if rows else {}
    taken = Counter(places.get(row.player_id, row.rank) for row in rows)
    for row in rows:
        row.place = places.get(row.player_id, row.rank)  # type: ignore[attr-defined]
        row.shared = taken[row.place] > 1  # type: ignore[attr-defined]
    return rows


def tournament_places(*, tournament: Tournament) -> dict[int, int]:
    """Each player's place in the standings (shared by players equal on every tiebreak;
    a finished bracket's places as the bracket decided them). Empty where the recorded
    results do not make standings (a result naming a player who did not play it, which
    the pages mark): each row's place is then its rank."""
    state = state_of(tournament=tournament)
    try:
        lines = standings_of(state)
    except ValueError:
        return {}
    return {line.player: line.place or line.rank for line in lines}


def tournament_round_clock(*, tournament: Tournament, now: dt.datetime | None = None) -> dict:
    """The round clock: the current round (None before round 1), its status, when it
    started (was paired, or the director started its clock) and ends (its deadline), the
    seconds left while it is in play with a deadline; and when the next round is scheduled,
    if it is."""
    now = now or timezone.now()
    round_ = tournament.rounds.filter(number=tournament.current_round).first()
    clock: dict[str, Any] = {
        "round": None, "status": None, "starts_at": None, "ends_at": None,
        "seconds_left": None, "next_round_at": None,
    }  # fmt: skip
    if round_ is not None:
        in_play = round_.status == Round.Status.PAIRED
        left = round_.deadline - now if in_play and round_.deadline is not None else None
        clock |= {
            "round": round_.number, "status": round_.status,
            "starts_at": round_.clock_started_at or round_.paired_at,
            "ends_at": round_.deadline,
            "seconds_left": max(0, int(left.total_seconds())) if left is not None else None,
        }  # fmt: skip
    more = tournament.rounds_planned is None or tournament.current_round < tournament.rounds_planned
    if tournament.status != Tournament.Status.FINISHED and more:
        clock["next_round_at"] = round_start(
            tournament=tournament, number=tournament.current_round + 1
        )
    return clock


STANDINGS_COLUMNS = [
    "rank", "player_id", "player", "played", "match_wins", "games_won", "points_diff",
    "buchholz", "sonneborn_berger", "byes", "withdrawn", "place",
]  # fmt: skip
RESULTS_COLUMNS = [
    "round", "table", "player1", "player2", "status", "winner", "games1", "games2",
    "points1", "points2", "result", "match_id",
]  # fmt: skip


def tournament_standings_table(*, tournament: Tournament) -> tuple[list[str], list[list[Any]]]:
    """The standings as a table (columns, rows), in rank order: the CSV of the desk and the
    API; `place` is shared by players equal on every tiebreak."""
    rows = [
        [
            s.rank,
            s.player_id,
            s.player.name,
            s.played,
            s.match_wins,
            s.games_won,
            s.points_diff,
            s.buchholz,
            s.sonneborn_berger,
            s.byes,
            s.withdrawn,
            s.place,  # type: ignore[attr-defined]
        ]  # fmt: skip
        for s in tournament_standings(tournament=tournament)
    ]
    return list(STANDINGS_COLUMNS), rows


def tournament_results_table(*, tournament: Tournament) -> tuple[list[str], list[list[Any]]]:
    """Every pairing with its result as a table (columns, rows), by round and table; players
    by name, a bye with no second player: the CSV of the desk and the API."""
    rows = [
        [
            p.round.number,
            p.table,
            p.player1.name,
            p.player2.name if p.player2 else "",
            p.status,
            p.winner.name if p.winner else "",
            p.games1,
            p.games2,
            p.points1,
            p.points2,
            p.result_reason,
            str(p.match_id) if p.match_id else "",
        ]  # fmt: skip
        for p in tournament_pairings(tournament=tournament, round_number=None)
    ]
    return list(RESULTS_COLUMNS), rows


def tournament_events(
    *,
    tournament: Tournament,
    viewer: User,
    after: int = 0,
    recorded: Sequence[eventstore.RecordedEvent] | None = None,
    insider: bool | None = None,
) -> list[dict[str, Any]]:
    """The decision log, oldest first, each event with who decided and why.

    `by` names the role of who decided: an organiser (or staff), the player themselves, or
    None for the system. The tournament's organisers and staff also see who it was (id and
    username); everyone else (spectators of a public tournament, its players) sees no
    organiser's id or login name, neither in `by` nor inside the event's data.
    `recorded`: the stream as already read (a live stream's, `tournament_followed`) instead
    of reading it; `insider`: whether `viewer` organises it, if already known.
    """
    if recorded is None:
        events = tournament_stream_events(tournament=tournament, after=after)
    else:
        events = [e for e in recorded if e.version > after]
    players = _player_users(events)
    if insider is None:
        insider = user_can_organise(user=viewer, tournament=tournament)
    logins = _logins(events) if insider else {}
    rows = []
    for e in events:
        role = _decider(e.data, players)
        if insider:
            # By id in the log; the login name as it is now (issue 34: events of 3.0 and
            # before held it too, and it may have changed or been erased since).
            by = (
                {**e.data["by"], "username": logins.get(e.data["by"].get("id"), "")}
                if role
                else None
            )
            data = {**e.data, "by": by} if by else e.data
            by = {**by, **role} if by and role else by
        else:
            by = role
            data = {k: v for k, v in e.data.items() if k not in _ORGANISER_KEYS} | {"by": role}
        rows.append(
            {
                "version": e.version,
                "type": e.type,
                "data": data,
                "by": by,
                "reason": e.data.get("reason", ""),
                "recorded_at": e.recorded_at,
            }
        )
    return rows


# Keys of an event's data that identify organisers (user ids), shown to insiders only: `by`
# (replaced by the role for everyone else) and TournamentCreated's `organisers`.
_ORGANISER_KEYS = frozenset({"by", "organisers"})


def _logins(events: Sequence[Any]) -> dict[int, str]:
    """User id -> the login name now, for the deciders the events name (one query)."""
    ids = {e.data["by"].get("id") for e in events if isinstance(e.data.get("by"), dict)}
    ids.discard(None)
    if not ids:
        return {}
    users = get_user_model().objects.filter(pk__in=ids)
    return {pk: name for pk, name in users.values_list("pk", get_user_model().USERNAME_FIELD)}


def _player_users(events: list[Any]) -> dict[int, int | None]:
    """Player id -> user id, for the players the events name (one query)."""
    ids = {e.data["player"] for e in events if isinstance(e.data.get("player"), int)}
    if not ids:
        return {}
    return dict(Player.objects.filter(pk__in=ids).values_list("pk", "user_id"))


def _decider(data: dict[str, Any], players: dict[int, int | None]) -> dict[str, str] | None:
    """The role of who decided: the player acting for themselves (registering, checking in,
    withdrawing) or an organiser; None for the system (scheduler, deadline job)."""
    by = data.get("by")
    if not isinstance(by, dict):
        return None
    player = data.get("player")
    if by.get("id") is not None and player in players and players[player] == by["id"]:
        return {"role": "player"}
    return {"role": "organiser"}


def tournament_next_round_due(*, tournament: Tournament, now: dt.datetime) -> int | None:
    """The round the scheduler should pair now, if any (its start time has come)."""
    if tournament.status == Tournament.Status.FINISHED:
        return None
    if tournament.status == Tournament.Status.REGISTRATION and tournament.starts_at is None:
        return None  # started by hand
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.COMPLETED:
        return None
    number = (last.number if last else 0) + 1
    if tournament.rounds_planned and number > tournament.rounds_planned:
        return None
    start = round_start(tournament=tournament, number=number)
    if start is not None and start > now:
        return None
    if number == 1 and active_registration_count(tournament=tournament) < 2:
        return None  # nobody to pair yet: asking every minute would only fail every minute
    return number


def tournaments_with_rounds_due(*, now: dt.datetime | None = None) -> list[tuple[int, int]]:
    """(tournament id, round number) for every round whose time has come but is unpaired."""
    now = now or timezone.now()
    due = []
    active = Tournament.objects.exclude(status=Tournament.Status.FINISHED)
    for tournament in active.filter(Q(status="in_progress") | Q(starts_at__lte=now)):
        number = tournament_next_round_due(tournament=tournament, now=now)
        if number is not None:
            due.append((tournament.pk, number))
    return due


def tournament_stream_events(
    *, tournament: Tournament, after: int = 0
) -> list[eventstore.RecordedEvent]:
    """The tournament's stored events after version `after` (its decision log)."""
    return eventstore.load(stream_id=tournament.stream_id, after_version=after)


def tournament_followed(*, tournament_id: Any) -> TournamentFollowed:
    """The tournament's row and whole stream as a live stream's followers read them after
    each commit (from this process's copy of the stream: `tournaments.followed`)."""
    # Lazy only while the live streams' fan-out is rewritten elsewhere (issue 31's note).
    from tournaments.followed import tournament_followed

    return tournament_followed(tournament_id=tournament_id)


def round_start(*, tournament: Tournament, number: int) -> dt.datetime | None:
    """When round `number` is scheduled to be paired (UTC), or None: as soon as possible
    (the domain's rule, on the row's schedule). Never raises."""
    return scheduled_start(
        number,
        starts_at=tournament.starts_at,
        round_interval=tournament.round_interval,
        round_starts=tournament.round_starts or (),
    )


def active_registration_count(*, tournament: Tournament) -> int:
    """Players who may be paired now (checked in, or registered where no check-in is asked)."""
    statuses = [Registration.Status.CHECKED_IN]
    if not tournament.check_in_required:
        statuses.append(Registration.Status.REGISTERED)
    return Registration.objects.filter(tournament=tournament, status__in=statuses).count()


def tournament_forbidden_pairs(*, tournament: Tournament) -> list[tuple[int, int]]:
    """The pairs of players who must not meet (lower id first), as the events say."""
    return sorted(state_of(tournament=tournament).forbidden)


def tournament_bracket(*, tournament: Tournament) -> dict[str, Any]:
    """The tournament's bracket as data a client can draw (the API's and the pages' one
    source): each match's slot, bracket, round, players, seeds, status, winner, and where its
    winner and loser go. A double elimination's winners' ("W") and losers' ("L") brackets and
    grand final ("GF"); a knockout's, or a Swiss top cut's once its cut is made, single
    bracket ("K", with "3P" for a third-place match). `format` says which ("" and no matches:
    a format with no bracket, or a top cut before its cut); `first_round` is the
    tournament round of the bracket's first round (a top cut's: after the Swiss). Never
    fails on results the bracket cannot take: it is answered as far as they are consistent,
    and `problems` (and each match's `problem`) mark the rest
    (tournaments.domain.brackets)."""
    return bracket_data(state_of(tournament=tournament))


def tournament_round_notes(*, tournament: Tournament) -> dict[int, dict[str, Any]]:
    """What each round's standing pairing (its last RoundPaired or RoundRepaired event)
    says about itself: `by_hand` (an organiser set it), `forbidden_met` (pairs kept apart
    that no valid pairing could keep apart) and `confirmed` (the rematches and forbidden
    pairs an organiser kept by hand). The public page and the desk show them."""
    notes: dict[int, dict[str, Any]] = {}
    for event in tournament_stream_events(tournament=tournament):
        if event.type in ("RoundPaired", "RoundRepaired"):
            notes[event.data.get("round")] = {
                "by_hand": bool(event.data.get("by_hand")),
                "forbidden_met": [list(p) for p in event.data.get("forbidden_met") or ()],
                "confirmed": list(event.data.get("confirmed") or ()),
            }
    return notes


def tournament_rounds_set_by_hand(*, tournament: Tournament) -> set[int]:
    """The rounds whose pairings stand as an organiser set them by hand."""
    notes = tournament_round_notes(tournament=tournament)
    return {number for number, note in notes.items() if note["by_hand"]}


# --- what the operators' side asks (core.alerts, core.metrics: registered in apps.py) ------


def tournament_alert_recipients(tournament_id: int) -> tuple[list[str], str]:
    """The e-mail addresses of a tournament's organisers (its own and its club's) and its
    language: whom an alert about it is sent to, in which words."""
    tournament = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if tournament is None:
        return [], ""
    users = list(tournament.organisers.all())
    if tournament.club is not None:
        users += list(tournament.club.organisers.all())
    addresses = sorted({u.email for u in users if u.email and u.is_active})
    return addresses, tournament_language(tournament=tournament)


ROUND_OVERDUE_AFTER = dt.timedelta(minutes=2)  # the scheduler runs every 30 s by default


def rounds_overdue() -> list[tuple[int, int]]:
    """Rounds whose start time passed more than ROUND_OVERDUE_AFTER ago, still unpaired."""
    return tournaments_with_rounds_due(now=timezone.now() - ROUND_OVERDUE_AFTER)
