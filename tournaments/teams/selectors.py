"""Reads of team events: who may organise one, its teams, matches, boards and standings."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_noop

from core.errors import NotFoundError, PermissionDeniedError
from players.models import Player
from tournaments.selectors import round_start, tournament_get
from tournaments.teams.models import Team, TeamBoard, TeamEvent, TeamMatch, TeamStanding
from tournaments.teams.repository import team_event_state_of


def user_can_organise_team_event(*, user: Any, event: TeamEvent) -> bool:
    """Staff, the event's creator, its club's organisers and, of a team tournament's
    event, the tournament's organisers."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser or event.created_by_id == user.pk:
        return True
    if event.tournament_id is not None and event.tournament.organisers.filter(pk=user.pk).exists():
        return True
    return event.club is not None and event.club.organisers.filter(pk=user.pk).exists()


def user_is_captain(*, user: Any, event: TeamEvent, team: int) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return Team.objects.filter(event=event, number=team, captain__user=user).exists()


def team_event_get(*, event_id: Any, user: Any = None) -> TeamEvent:
    """The team event (a private one only for its organisers); DoesNotExist otherwise."""
    event = TeamEvent.objects.select_related("club").get(pk=event_id)
    if not event.is_public and not user_can_organise_team_event(user=user, event=event):
        raise TeamEvent.DoesNotExist
    return event


def team_event_of_tournament(*, tournament_id: Any, user: Any = None) -> TeamEvent:
    """The team event a team format's tournament owns, if `user` may see the tournament
    (its visibility is the tournament's); NotFoundError otherwise, and for a tournament of
    single players (reason not_a_team_tournament)."""
    tournament = tournament_get(tournament_id=tournament_id, user=user)
    event = TeamEvent.objects.select_related("club", "tournament").filter(tournament=tournament)
    found = event.first()
    if found is None:
        raise NotFoundError(
            "this tournament has no teams", extra={"reason": "not_a_team_tournament"}
        )
    return found


def team_event_lineups(
    *, event: TeamEvent, round_number: int | None = None
) -> list[dict[str, Any]]:
    """Each team's players in board order for a round (default: the next to be paired):
    the captain's lineup where one was set (`set`), else the roster's first boards."""
    state = team_event_state_of(event=event)
    number = round_number if round_number is not None else state.current_round + 1
    return [
        {
            "team": team,
            "round": number,
            "players": list(state.lineup(team, number)),
            "set": (team, number) in state.lineups,
            "fixed": number <= state.current_round or state.finished,
            "hidden": False,
        }
        for team in sorted(state.teams)
    ]


def team_event_lineups_for(
    *, event: TeamEvent, user: Any, round_number: int | None = None
) -> list[dict[str, Any]]:
    """The lineups as `user` may see them: a lineup set for a round not yet paired is its
    team's secret until the pairing (an opponent would line up against it), seen by the
    team's captain and the event's organisers; anyone else is told it is set (`hidden`,
    no players), as a captain hands the arbiter a sealed lineup."""
    rows = team_event_lineups(event=event, round_number=round_number)
    if user_can_organise_team_event(user=user, event=event):
        return rows
    mine: set[int] = set()
    if user is not None and user.is_authenticated:
        teams = Team.objects.filter(event=event, captain__user=user)
        mine = set(teams.values_list("number", flat=True))
    for row in rows:
        if row["set"] and not row["fixed"] and row["team"] not in mine:
            row["hidden"], row["players"] = True, []
    return rows


def team_event_list(*, user: Any = None) -> QuerySet[TeamEvent]:
    events = TeamEvent.objects.select_related("club")
    if user is not None and user.is_authenticated and user.is_staff:
        return events
    return events.filter(is_public=True)


def team_event_teams(*, event: TeamEvent) -> QuerySet[Team]:
    return Team.objects.filter(event=event).order_by("number")


def team_event_standings(*, event: TeamEvent) -> QuerySet[TeamStanding]:
    return TeamStanding.objects.filter(event=event).order_by("rank")


def team_event_matches(*, event: TeamEvent, round_number: int | None = None) -> list[TeamMatch]:
    """The team matches with their boards (a team-match sheet), by round and table."""
    matches = TeamMatch.objects.filter(event=event)
    boards = TeamBoard.objects.filter(event=event).select_related("player1", "player2")
    if round_number is not None:
        matches, boards = matches.filter(round=round_number), boards.filter(round=round_number)
    by_table: dict[tuple[int, int], list[TeamBoard]] = {}
    for b in boards:
        by_table.setdefault((b.round, b.table), []).append(b)
    out = list(matches)
    for m in out:
        m.board_list = by_table.get((m.round, m.table), [])  # type: ignore[attr-defined]
    return out


def team_event_page(*, event_id: Any, user: Any = None) -> dict[str, Any]:
    """What a team event's public page shows: the event, its teams by number, its team
    standings, and each round's team matches with their boards (players by id, names
    beside). NotFoundError for an event the viewer may not see."""
    try:
        event = team_event_get(event_id=event_id, user=user)
    except TeamEvent.DoesNotExist as exc:
        raise NotFoundError("no such team event") from exc
    teams = {t.number: t for t in team_event_teams(event=event)}
    matches = team_event_matches(event=event)
    ids = {p for m in matches for b in m.board_list for p in (b.player1_id, b.player2_id)}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    rounds: dict[int, list[TeamMatch]] = {}
    for m in matches:
        rounds.setdefault(m.round, []).append(m)
    return {
        "event": event,
        "teams": teams,
        "standings": list(team_event_standings(event=event)),
        "rounds": sorted(rounds.items()),
        "names": names,
    }


def team_event_stream_heads(*, stream_id: str | None = None) -> list[tuple[str, int]]:
    """(stream id, version the team event's record holds) of every team event (or of the one
    with that stream): registered with the event store, which finds a stream cut short by
    them (TeamsConfig.ready())."""
    events = TeamEvent.objects.all()
    if stream_id is not None:
        number = stream_id.removeprefix("team-event-")
        if not number.isdigit() or stream_id == number:
            return []
        events = events.filter(pk=int(number))
    return [(f"team-event-{pk}", version) for pk, version in events.values_list("pk", "version")]


# --- a captain's page (web/play/captain.py): the captain's own team only -----------------


def team_captaincies(*, player: Any) -> list[Team]:
    """The teams `player` captains in team events not finished (registering or running),
    each with its event (`team.event`), latest event first: "my evening" links them."""
    if player is None:
        return []
    teams = Team.objects.filter(captain=player).exclude(event__status=TeamEvent.Status.FINISHED)
    return list(teams.select_related("event", "event__tournament").order_by("-event_id"))


def team_captain_page(*, event_id: Any, user: Any) -> dict[str, Any]:
    """What the captain's page shows: the event, the captain's team with its roster by
    name, the lineup of the round to come (`next_round`: its board order, whether it was set
    by hand, its deadline where the tournament has a schedule: the round's start) or None
    when no round is left to set, and the round in play, once paired: the opponent and both
    sides' boards (the opponent's lineup only then: before the pairing nobody sees it, as
    nobody sees whom the team meets). NotFoundError where the viewer may not see the event,
    PermissionDeniedError where they see it but do not captain a team in it."""
    try:
        event = team_event_get(event_id=event_id, user=user)
    except (TeamEvent.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such team event") from exc
    team = Team.objects.filter(event=event, captain__user=user).first()
    if team is None:
        raise PermissionDeniedError(gettext_noop("only the team's captain may set its lineup"))
    state = team_event_state_of(event=event)
    number = state.current_round + 1
    left = not state.finished and (state.rounds_planned is None or number <= state.rounds_planned)
    names = dict(Player.objects.filter(pk__in=team.roster).values_list("pk", "name"))
    upcoming = None
    if left and team.number in state.teams:
        deadline = None
        if event.tournament is not None:
            deadline = round_start(tournament=event.tournament, number=number)
        upcoming = {
            "round": number,
            "players": lineup_rows(team.roster, list(state.lineup(team.number, number)), names),
            "set": (team.number, number) in state.lineups,
            "deadline": deadline,
        }
    return {
        "event": event,
        "team": team,
        "captain": names.get(team.captain_id or 0, ""),
        "roster": [{"id": p, "name": names.get(p, str(p))} for p in team.roster],
        "upcoming": upcoming,
        "in_play": _captain_round_in_play(event, team),
        "zone": event.tournament if event.tournament is not None else "UTC",
    }


def lineup_rows(roster: list[int], lineup: list[int], names: dict[int, str]) -> list[dict]:
    """The lineup form's rows (the captain's page and the desk): the lineup's players in
    board order with their boards, then the reserves in roster order (no board)."""
    bench = [p for p in roster if p not in lineup]
    return [
        {"id": p, "name": names.get(p, str(p)), "board": i if i <= len(lineup) else None}
        for i, p in enumerate([*lineup, *bench], 1)
    ]


def _captain_round_in_play(event: TeamEvent, team: Team) -> dict[str, Any] | None:
    """The team's match of the last paired round: the opponent (None: a bye) and the boards
    with both sides' players, the team's own first on each."""
    if not event.current_round:
        return None
    mine = Q(team1=team.number) | Q(team2=team.number)
    match = TeamMatch.objects.filter(event=event, round=event.current_round).filter(mine).first()
    if match is None:
        return None
    other = match.team2 if match.team1 == team.number else match.team1
    opponent = Team.objects.filter(event=event, number=other).first() if other else None
    boards = TeamBoard.objects.filter(event=event, round=match.round, table=match.table)
    rows, ours = [], set(team.roster)
    for b in boards.select_related("player1", "player2").order_by("board"):
        us, them = (b.player1, b.player2) if b.player1_id in ours else (b.player2, b.player1)
        rows.append({"board": b.board, "us": us.name, "them": them.name, "result": b.result})
    return {"round": match.round, "table": match.table, "opponent": opponent, "boards": rows}


# --- the desk: what an organiser sees and runs ---------------------------------------------

STANDINGS_COLUMNS = [
    "rank", "team", "team_name", "match_points", "board_points", "hollywood_points",
    "played", "won", "drawn", "lost", "byes",
]  # fmt: skip
BOARD_COLUMNS = [
    "round", "table", "board", "team1", "team2", "player1", "player2", "points1", "points2",
    "winner", "result",
]  # fmt: skip


def team_events_organised(*, user: Any) -> list[TeamEvent]:
    """The team events `user` organises (as `user_can_organise_team_event` says), latest
    first: the desk's list."""
    if user is None or not user.is_authenticated:
        return []
    events = TeamEvent.objects.select_related("club").order_by("-pk")
    if not (user.is_staff or user.is_superuser):
        mine = Q(created_by=user) | Q(tournament__organisers=user) | Q(club__organisers=user)
        events = events.filter(mine).distinct()
    return list(events[:500])


def team_event_for_desk(*, event_id: Any, user: Any) -> TeamEvent:
    """The team event if `user` organises it: NotFoundError if they may not see it,
    PermissionDeniedError if they see it but do not organise it."""
    try:
        event = team_event_get(event_id=event_id, user=user)
    except (TeamEvent.DoesNotExist, ValueError, TypeError) as exc:
        raise NotFoundError("no such team event") from exc
    if not user_can_organise_team_event(user=user, event=event):
        raise PermissionDeniedError("only the team event's organisers may do this")
    return event


def team_event_desk(*, event: TeamEvent) -> dict[str, Any]:
    """The desk page's data: the public page's (teams, standings, rounds with boards, names),
    each team's roster by name with its lineup for the next round (the board each player
    sits at, None: not playing), and that round's number."""
    page = team_event_page(event_id=event.pk, user=None) if event.is_public else None
    if page is None:  # a private event: the same reads without the public check
        teams = {t.number: t for t in team_event_teams(event=event)}
        matches = team_event_matches(event=event)
        rounds: dict[int, list[TeamMatch]] = {}
        for m in matches:
            rounds.setdefault(m.round, []).append(m)
        page = {
            "event": event,
            "teams": teams,
            "standings": list(team_event_standings(event=event)),
            "rounds": sorted(rounds.items()),
        }
    lineups = {row["team"]: row for row in team_event_lineups(event=event)}
    roster_ids = {p for t in page["teams"].values() for p in t.roster}
    names = dict(Player.objects.filter(pk__in=roster_ids).values_list("pk", "name"))
    sides = []
    for number, team in sorted(page["teams"].items()):
        lineup = lineups.get(number, {})
        sides.append(
            {
                "team": team,
                "captain": names.get(team.captain_id or 0, ""),
                "players": lineup_rows(team.roster, list(lineup.get("players", [])), names),
                "set": lineup.get("set", False),
            }
        )
    next_round = event.current_round + 1
    return {
        **page,
        "names": names,
        "sides": sides,
        "next_round": next_round,
        "can_pair": event.status != "finished"
        and (event.rounds_planned is None or next_round <= event.rounds_planned),
    }


def team_event_standings_table(*, event: TeamEvent) -> tuple[list[str], list[list[Any]]]:
    """The team standings as a table (column codes, rows): the desk's CSV and .xlsx."""
    names = dict(Team.objects.filter(event=event).values_list("number", "name"))
    rows = [
        [
            s.rank, s.team, names.get(s.team, ""), s.match_points, s.board_points,
            s.hollywood_points, s.played, s.won, s.drawn, s.lost, s.byes,
        ]
        for s in team_event_standings(event=event)
    ]  # fmt: skip
    return list(STANDINGS_COLUMNS), rows


def team_event_boards_table(*, event: TeamEvent) -> tuple[list[str], list[list[Any]]]:
    """Every board's result as a table (column codes, rows): the .xlsx's second sheet."""
    names = dict(Team.objects.filter(event=event).values_list("number", "name"))
    rows = []
    for m in team_event_matches(event=event):
        for b in m.board_list:
            winner = b.player1.name if b.winner == b.player1_id else ""
            winner = b.player2.name if b.winner == b.player2_id else winner
            rows.append(
                [
                    m.round, m.table, b.board, names.get(m.team1, ""),
                    names.get(m.team2, "") if m.team2 else "", b.player1.name, b.player2.name,
                    b.points1, b.points2, winner, b.result or "",
                ]
            )  # fmt: skip
    return list(BOARD_COLUMNS), rows
