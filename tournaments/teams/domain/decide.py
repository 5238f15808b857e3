"""`decide(state, command) -> events` for a team event: every rule in one place. A repeated
job (a round already paired, a result already recorded) decides no events."""

from __future__ import annotations

from dataclasses import replace

from tournaments.domain.errors import TournamentConflictError, TournamentInputError
from tournaments.pairing import ForbiddenPairInRoundRobinError
from tournaments.teams.domain.commands import (
    CreateTeamEvent,
    ForbidTeams,
    ImportRound,
    PairTeamRound,
    RecordBoard,
    RegisterTeam,
    SetLineup,
    TeamCommand,
)
from tournaments.teams.domain.events import (
    TEAM_FORMATS,
    BoardResultCorrected,
    BoardResultRecorded,
    LineupSet,
    TeamEvent,
    TeamEventCreated,
    TeamEventFinished,
    TeamPairForbidden,
    TeamRegistered,
    TeamRoundCompleted,
    TeamRoundPaired,
)
from tournaments.teams.domain.evolve import evolve, fold
from tournaments.teams.domain.pairing import pairing_entries, round_count, seeds, team_pairs
from tournaments.teams.domain.state import COMPLETED, TeamEventState

MAX_BOARDS = 12


def decide(state: TeamEventState, command: TeamCommand) -> list[TeamEvent]:
    match command:
        case CreateTeamEvent():
            return _create(state, command)
        case RegisterTeam():
            return _register(state, command)
        case SetLineup():
            return _lineup(state, command)
        case ForbidTeams():
            pair = (min(command.teams), max(command.teams))
            if pair[0] == pair[1] or not set(pair) <= set(state.teams):
                raise TournamentInputError("name two different teams of the event", code="teams")
            return [] if pair in state.forbidden else [TeamPairForbidden(teams=pair)]
        case PairTeamRound():
            return _pair(state, command)
        case RecordBoard():
            return _record(state, command)
        case ImportRound():
            return _import(state, command)
    raise TypeError(f"not a team command: {command!r}")


def _create(state: TeamEventState, c: CreateTeamEvent) -> list[TeamEvent]:
    if state.created:
        raise TournamentConflictError("the team event exists", code="exists")
    if c.format not in TEAM_FORMATS:
        raise TournamentInputError(
            "the format must be team_round_robin or team_swiss", code="format"
        )
    if not 1 <= c.boards <= MAX_BOARDS:
        raise TournamentInputError(
            "boards must be 1 to %(max)s", code="boards", params={"max": MAX_BOARDS}
        )
    win, draw, loss = c.match_points
    if not win >= draw >= loss >= 0 or win == loss:
        raise TournamentInputError(
            "match points must be win >= draw >= loss >= 0, win > loss", code="match_points"
        )
    if c.rounds is not None and c.rounds < 1:
        raise TournamentInputError("rounds must be at least 1", code="rounds")
    return [
        TeamEventCreated(
            format=c.format,
            name=c.name,
            club=c.club,
            boards=c.boards,
            rounds=c.rounds,
            match_points=c.match_points,
            ruleset=c.ruleset,
            play_mode=c.play_mode,
            is_public=c.is_public,
            tournament=c.tournament,
        )
    ]


def _register(state: TeamEventState, c: RegisterTeam) -> list[TeamEvent]:
    if state.started:
        raise TournamentConflictError("the event has started", code="started")
    if len(c.roster) < state.boards or len(set(c.roster)) != len(c.roster):
        raise TournamentInputError(
            "a roster names at least %(boards)s different players",
            code="roster",
            params={"boards": state.boards},
        )
    taken = {p for t in state.teams.values() for p in t.roster} & set(c.roster)
    if taken:
        raise TournamentConflictError(
            "a player is on another team's roster",
            code="roster_taken",
            extra={"players": sorted(taken)},
        )
    if c.captain is not None and c.captain not in c.roster:
        raise TournamentInputError("the captain must be on the roster", code="captain")
    if not c.name.strip() or any(t.name == c.name for t in state.teams.values()):
        raise TournamentInputError("each team needs a name of its own", code="team_name")
    number = len(state.teams) + 1
    return [
        TeamRegistered(team=number, name=c.name, club=c.club, captain=c.captain, roster=c.roster)
    ]


def _lineup(state: TeamEventState, c: SetLineup) -> list[TeamEvent]:
    team = state.teams.get(c.team)
    if team is None:
        raise TournamentInputError("no such team", code="team")
    if state.finished or c.round <= state.current_round:
        raise TournamentConflictError(
            "the round is paired: its lineups are fixed", code="lineup_deadline"
        )
    if len(c.players) != state.boards or len(set(c.players)) != len(c.players):
        raise TournamentInputError(
            "a lineup names %(boards)s different players",
            code="lineup",
            params={"boards": state.boards},
        )
    if not set(c.players) <= set(team.roster):
        raise TournamentInputError(
            "a lineup takes players from the team's roster", code="lineup_roster"
        )
    if state.lineups.get((c.team, c.round)) == c.players:
        return []
    return [LineupSet(team=c.team, round=c.round, players=c.players)]


def _pair(state: TeamEventState, c: PairTeamRound) -> list[TeamEvent]:
    n = c.number
    if state.finished or n <= state.current_round:
        return []
    if n != state.current_round + 1:
        raise TournamentConflictError(
            "the next round is %(round)s",
            code="round_not_next",
            params={"round": state.current_round + 1},
        )
    previous = state.rounds.get(n - 1)
    if previous is not None and previous.status != COMPLETED:
        raise TournamentConflictError(
            "round %(round)s is still in play", code="round_in_play", params={"round": n - 1}
        )
    if len(state.teams) < 2:
        raise TournamentConflictError("at least two teams must be registered", code="too_few")
    first: dict[str, object] = {}
    if n == 1:
        order = seeds(state, c.ratings)
        first = {"seeds": tuple(order), "rounds": round_count(state, len(order))}
        teams = {k: replace(t, seed=order.index(k) + 1) for k, t in state.teams.items()}
        state = replace(state, teams=teams, rounds_planned=round_count(state, len(order)))
    if state.rounds_planned is not None and n > state.rounds_planned:
        return []
    try:
        pairs = team_pairs(state, n)
        entries = pairing_entries(state, n, pairs, c.match_ids)
    except ForbiddenPairInRoundRobinError as exc:
        raise TournamentConflictError(
            "two teams that must not meet are in a round robin", code="forbidden_pair"
        ) from exc
    except IndexError as exc:
        raise TournamentInputError("too few match ids for the round", code="match_ids") from exc
    paired = TeamRoundPaired(round=n, pairings=entries, **first)  # type: ignore[arg-type]
    events: list[TeamEvent] = [paired]
    after = evolve(state, paired)
    if after.rounds[n].complete:  # byes only
        events += _round_end(after, n)
    return events


def _record(state: TeamEventState, c: RecordBoard) -> list[TeamEvent]:
    r = c.result
    round_ = state.rounds.get(r.round)
    board = round_.board(r.table, r.board) if round_ else None
    if round_ is None or board is None:
        raise TournamentInputError("no such board in that round", code="board")
    if r.winner is not None and r.winner not in (board.player1, board.player2):
        raise TournamentInputError("the winner must be one of the board's players", code="winner")
    old = round_.results.get((r.table, r.board))
    if old == r:
        return []
    if old is not None:
        return [BoardResultCorrected(result=r)]
    recorded = BoardResultRecorded(result=r)
    state = evolve(state, recorded)
    events: list[TeamEvent] = [recorded]
    if state.rounds[r.round].complete:
        events += _round_end(state, r.round)
    return events


def _round_end(state: TeamEventState, number: int) -> list[TeamEvent]:
    events: list[TeamEvent] = [TeamRoundCompleted(round=number)]
    if state.rounds_planned is not None and number >= state.rounds_planned:
        events.append(TeamEventFinished(rounds=number))
    return events


def _import(state: TeamEventState, c: ImportRound) -> list[TeamEvent]:
    """An imported round: every team once, boards from the two rosters, one result a board."""
    n = c.number
    if n != state.current_round + 1 or (n > 1 and state.rounds[n - 1].status != COMPLETED):
        raise TournamentConflictError("rounds are imported in order", code="round_not_next")
    seen = [t for p in c.pairings for t in (p.team1, p.team2) if t is not None]
    if sorted(seen) != sorted(state.teams):
        raise TournamentInputError("each team once a round", code="pairings")
    for p in c.pairings:
        if p.team2 is not None and len(p.boards) != state.boards:
            raise TournamentInputError("a team match has one board each", code="boards")
        for b in p.boards:
            if b.player1 not in state.teams[p.team1].roster or (
                p.team2 is None or b.player2 not in state.teams[p.team2].roster
            ):
                raise TournamentInputError("a board's players are its teams'", code="board")
    first: dict[str, object] = {}
    if n == 1:
        first = {"seeds": tuple(sorted(state.teams)), "rounds": c.rounds}
    paired = TeamRoundPaired(round=n, pairings=c.pairings, imported=True, **first)  # type: ignore[arg-type]
    events: list[TeamEvent] = [paired]
    after = evolve(state, paired)
    for r in c.results:
        events += (got := _record(after, RecordBoard(r)))
        after = fold(got, after)
    if not after.rounds[n].complete:
        raise TournamentInputError("every board of an imported round has a result", code="results")
    if not any(isinstance(e, TeamRoundCompleted) for e in events):
        events += _round_end(after, n)
    return events
