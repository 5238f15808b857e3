"""A team event's events → its read models (TeamEvent, Team, TeamMatch, TeamBoard,
TeamStanding), from its state alone, so a rebuild writes the same rows; and the pictures
`verify_projections` compares with a rebuild."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import eventstore
from core.drift import RowDifference, pictures_differences
from tournaments.teams.domain import TeamEvent, TeamEventState, fold, team_standings
from tournaments.teams.domain.standings import match_score
from tournaments.teams.domain.stored import event_from_stored
from tournaments.teams.models import Team, TeamBoard, TeamMatch, TeamStanding
from tournaments.teams.models import TeamEvent as TeamEventRow


def typed_events(recorded: Iterable[Any]) -> list[TeamEvent]:
    return [
        event_from_stored(e.type, e.data, at=e.recorded_at, by=(e.metadata or {}).get("by"))
        for e in recorded
    ]


def team_event_state(*, event: TeamEventRow) -> TeamEventState:
    """The team event's state folded from its whole stream."""
    return fold(typed_events(eventstore.load(stream_id=event.stream_id)))


def project_in_tx(*, event: TeamEventRow, state: TeamEventState) -> None:
    """Write every read model of the team event from its state (the rows of a team event
    are few: they are written afresh)."""
    TeamEventRow.objects.filter(pk=event.pk).update(
        format=state.format,
        boards=state.boards,
        match_points=list(state.match_points),
        rounds_planned=state.rounds_planned,
        current_round=state.current_round,
        status=state.status,
        version=state.version,
        is_public=state.is_public,
        play_mode=state.play_mode,
        ruleset=state.ruleset,
        tournament_id=state.tournament,
    )
    for model in (Team, TeamMatch, TeamBoard, TeamStanding):
        model.objects.filter(event=event).delete()
    Team.objects.bulk_create(
        Team(
            event=event,
            number=t.number,
            name=t.name,
            club_id=t.club,
            captain_id=t.captain,
            roster=list(t.roster),
            seed=t.seed,
        )
        for t in state.teams.values()
    )
    matches, boards = [], []
    for number in sorted(state.rounds):
        round_ = state.rounds[number]
        for p in round_.pairings:
            s = match_score(state, round_, p)
            matches.append(
                TeamMatch(
                    event=event,
                    round=number,
                    table=p.table,
                    team1=p.team1,
                    team2=p.team2,
                    boards1=s and s.boards1,
                    boards2=s and s.boards2,
                    points1=s and s.points1,
                    points2=s and s.points2,
                    outcome1=s.outcome1 if s else "",
                )
            )
            for b in p.boards:
                r = round_.results.get((p.table, b.board))
                boards.append(
                    TeamBoard(
                        event=event,
                        round=number,
                        table=p.table,
                        board=b.board,
                        player1_id=b.player1,
                        player2_id=b.player2,
                        dealer=b.dealer,
                        match_id=b.match,
                        winner=r.winner if r else None,
                        games1=r.games1 if r else 0,
                        games2=r.games2 if r else 0,
                        points1=r.points1 if r else 0,
                        points2=r.points2 if r else 0,
                        result=r.result if r else "",
                    )
                )
    TeamMatch.objects.bulk_create(matches)
    TeamBoard.objects.bulk_create(boards)
    TeamStanding.objects.bulk_create(
        TeamStanding(event=event, **vars(line)) for line in team_standings(state)
    )


def team_event_rebuild_in_tx(*, event: TeamEventRow) -> None:
    project_in_tx(event=event, state=team_event_state(event=event))


_EVENT_FIELDS = (
    "format",
    "boards",
    "match_points",
    "rounds_planned",
    "current_round",
    "status",
    "version",
    "is_public",
    "play_mode",
    "ruleset",
    "tournament_id",
)
_TEAM_FIELDS = ("name", "club_id", "captain_id", "roster", "seed")
_MATCH_FIELDS = ("team1", "team2", "boards1", "boards2", "points1", "points2", "outcome1")
_BOARD_FIELDS = (
    "player1_id",
    "player2_id",
    "dealer",
    "match_id",
    "winner",
    "games1",
    "games2",
    "points1",
    "points2",
    "result",
)
_STANDING_FIELDS = (
    "rank",
    "match_points",
    "board_points",
    "hollywood_points",
    "played",
    "won",
    "drawn",
    "lost",
    "byes",
)


def projected_pictures(*, event: TeamEventRow) -> dict[str, dict[Any, dict[str, Any]]]:
    """Every projected row of the team event by natural key and field (core.drift)."""
    row = TeamEventRow.objects.get(pk=event.pk)
    k = row.pk

    def fields(obj: Any, names: tuple[str, ...]) -> dict[str, Any]:
        return {f: getattr(obj, f) for f in names}

    return {
        TeamEventRow._meta.db_table: {k: fields(row, _EVENT_FIELDS)},
        Team._meta.db_table: {
            (k, t.number): fields(t, _TEAM_FIELDS) for t in Team.objects.filter(event=row)
        },
        TeamMatch._meta.db_table: {
            (k, m.round, m.table): fields(m, _MATCH_FIELDS)
            for m in TeamMatch.objects.filter(event=row)
        },
        TeamBoard._meta.db_table: {
            (k, b.round, b.table, b.board): fields(b, _BOARD_FIELDS)
            for b in TeamBoard.objects.filter(event=row)
        },
        TeamStanding._meta.db_table: {
            (k, s.team): fields(s, _STANDING_FIELDS) for s in TeamStanding.objects.filter(event=row)
        },
    }


def team_events_differences(*, fix: bool = False) -> list[RowDifference]:
    """Every team event's rows against a replay of its stream (verify_projections)."""
    out: list[RowDifference] = []
    for event in TeamEventRow.objects.order_by("pk"):
        out += pictures_differences(
            lambda e=event: projected_pictures(event=e),
            lambda e=event: team_event_rebuild_in_tx(event=e),
            fix=fix,
        )
    return out
