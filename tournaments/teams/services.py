"""Team events' commands: load → decide (tournaments.teams.domain) → save, one transaction
each (`write_service`). A round's matches are made with ids chosen before the decision,
which names them in its event (the games side makes each board's match)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from core.errors import PermissionDeniedError, ValidationError
from core.transactions import write_service
from games.selectors import match_outcomes, ruleset_normalise
from games.services import match_create_in_tx
from players.models import Club, Player
from players.selectors import user_is_organiser
from tournaments.ratings.selectors import seeding_ratings
from tournaments.repository import system_user
from tournaments.teams.domain import TeamEventState, decide
from tournaments.teams.domain.commands import (
    CreateTeamEvent,
    ForbidTeams,
    PairTeamRound,
    RecordBoard,
    RegisterTeam,
    SetLineup,
)
from tournaments.teams.domain.events import BoardResult, TeamRoundPaired
from tournaments.teams.domain.pairing import boards_needed
from tournaments.teams.models import TeamBoard
from tournaments.teams.models import TeamEvent as TeamEventRow
from tournaments.teams.repository import (
    TeamEventWrite,
    team_event_load,
    team_event_new,
    team_event_save,
)
from tournaments.teams.selectors import user_can_organise_team_event, user_is_captain

ORGANISERS_ONLY = "only the team event's organisers may do this"


def _organiser(user: AbstractBaseUser | None, write: TeamEventWrite) -> None:
    if user is not None and not user_can_organise_team_event(user=user, event=write.row):
        raise PermissionDeniedError(ORGANISERS_ONLY)


def _field_error(field: str, message: str, reason: str) -> ValidationError:
    error = ValidationError(message)
    error.extra = {"fields": {field: [error.message]}, "reason": reason}
    return error


def _club(club_id: int | None, field: str) -> Club | None:
    if club_id is None:
        return None
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise _field_error(field, "no such club", "no_club")
    return club


def require_creator(user: AbstractBaseUser, club: Club | None) -> None:
    """`user` may create a team event (of `club`): an organiser (of the club)."""
    if not user_is_organiser(user=user):
        raise PermissionDeniedError("only organisers may create tournaments")
    if club is not None and not (user.is_staff or club.organisers.filter(pk=user.pk).exists()):
        raise PermissionDeniedError("only the club's organisers may create its tournaments")


@write_service
def team_event_create(
    *,
    name: str,
    format: str,  # noqa: A002
    created_by: AbstractBaseUser,
    club_id: int | None = None,
    boards: int = 4,
    rounds: int | None = None,
    match_points: tuple[int, int, int] = (2, 1, 0),
    ruleset: dict[str, Any] | None = None,
    is_public: bool = True,
    tournament_id: int | None = None,
) -> TeamEventRow:
    """Create a team event; organisers only (a club's: its organisers). `tournament_id`:
    the tournament of a team format that owns it (tournaments.services.tournament_create
    makes the two in one transaction)."""
    require_creator(created_by, _club(club_id, "club_id"))
    ruleset = ruleset_normalise(ruleset=ruleset)
    command = CreateTeamEvent(
        format=format,
        name=name,
        club=club_id,
        boards=boards,
        rounds=rounds,
        match_points=tuple(match_points),  # type: ignore[arg-type]
        ruleset=ruleset,
        is_public=is_public,
        tournament=tournament_id,
    )
    events = decide(TeamEventState(), command)
    write = team_event_new(name=name, format=format, club_id=club_id, created_by=created_by)
    team_event_save(write, events, by=created_by)
    write.row.refresh_from_db()
    return write.row


@write_service
def team_register(
    *,
    event_id: int,
    name: str,
    roster: list[int],
    by: AbstractBaseUser | None,
    captain: int | None = None,
    club_id: int | None = None,
    by_rating: bool = True,
) -> int:
    """Register a club's side; its roster in board order: by the club's rating, best first
    (`by_rating`), else as given. Returns the team's number."""
    write = team_event_load(event_id=event_id)
    _organiser(by, write)
    _club(club_id, "club_id")
    found = set(Player.objects.filter(pk__in=roster).values_list("pk", flat=True))
    if len(found) != len(set(roster)):
        raise _field_error("roster", "the roster names a player who does not exist", "no_player")
    ordered = list(roster)
    if by_rating:
        ratings = seeding_ratings(club=write.row.club, player_ids=roster)
        ordered.sort(key=lambda p: (-ratings.get(p, 1500.0), roster.index(p)))
    command = RegisterTeam(name=name, club=club_id, captain=captain, roster=tuple(ordered))
    state = team_event_save(write, decide(write.state, command), by=by)
    return max(state.teams)


@write_service
def team_lineup_set(
    *, event_id: int, team: int, round_number: int, players: list[int], by: AbstractBaseUser
) -> None:
    """The team's captain (or an organiser) sets its board order for a round before it is
    paired (the deadline)."""
    write = team_event_load(event_id=event_id)
    if not user_is_captain(user=by, event=write.row, team=team):
        _organiser(by, write)
    command = SetLineup(team=team, round=round_number, players=tuple(players))
    team_event_save(write, decide(write.state, command), by=by)


@write_service
def team_pair_forbid(*, event_id: int, teams: tuple[int, int], by: AbstractBaseUser) -> None:
    write = team_event_load(event_id=event_id)
    _organiser(by, write)
    team_event_save(write, decide(write.state, ForbidTeams(teams=teams)), by=by)


@write_service
def team_round_pair(
    *, event_id: int, round_number: int, by: AbstractBaseUser | None = None
) -> bool:
    """Pair round `round_number` and make its boards' matches. False, writing nothing, when
    it is already paired (a repeated job)."""
    write = team_event_load(event_id=event_id)
    _organiser(by, write)
    players = [p for t in write.state.teams.values() for p in t.roster]
    ids = tuple(str(uuid.uuid4()) for _ in range(boards_needed(write.state)))
    command = PairTeamRound(
        number=round_number,
        match_ids=ids,
        ratings=seeding_ratings(club=write.row.club, player_ids=players),
    )
    events = decide(write.state, command)
    paired = [e for e in events if isinstance(e, TeamRoundPaired)]
    if not paired:
        return False
    everyone = Player.objects.in_bulk(players)
    # The boards' matches are organised as a tournament's are: by its organisers (here its
    # creator and its club's), and the scheduler's identity for automatic rulings.
    organisers = [write.row.created_by, system_user()]
    if write.row.club is not None:
        organisers += list(write.row.club.organisers.all())
    for p in paired[0].pairings:
        for b in p.boards:
            match_create_in_tx(
                player1=everyone[b.player1],
                player2=everyone[b.player2],
                ruleset=write.state.ruleset,
                first_dealer=everyone[b.dealer],
                mode=write.state.play_mode,
                organisers=organisers,
                created_by=by,
                label=f"{write.row.name[:40]} R{round_number} T{p.table} B{b.board}",
                match_id=uuid.UUID(b.match),
            )
    team_event_save(write, events, by=by)
    return True


@write_service
def team_board_record(*, match_id: str) -> bool:
    """A board's match finished: record its result (and complete the round). False where
    the match is not a board, has no result yet, or its result is recorded."""
    board = TeamBoard.objects.filter(match_id=match_id).first()
    outcome = match_outcomes(match_ids=[match_id]).get(str(match_id))
    if board is None or outcome is None or outcome.status != "finished":
        return False
    write = team_event_load(event_id=board.event_id)
    (g1, g2), (p1, p2) = outcome.games_won, outcome.points
    if outcome.player1 != board.player1_id:  # the match's seats are the board's
        g1, g2, p1, p2 = g2, g1, p2, p1
    result = BoardResult(
        round=board.round,
        table=board.table,
        board=board.board,
        winner=outcome.winner,
        games1=g1,
        games2=g2,
        points1=p1,
        points2=p2,
        result="forfeit" if outcome.finish_reason == "forfeit" else "played",
    )
    events = decide(write.state, RecordBoard(result))
    team_event_save(write, events)
    return bool(events)
