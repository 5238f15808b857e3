"""The automatic end of a hand: HandScored, then GameWon for each game it ends, then
MatchFinished when the match is decided. Shared by online play, table mode and rulings."""

from __future__ import annotations

from games.engine.events import Event, GameWon, HandScored, MatchFinished
from games.engine.ruleset import Ruleset
from games.engine.scoresheet import Scoresheet, match_winner, scoresheet_win
from games.engine.state import MatchState


def score_events(
    state: MatchState,
    *,
    hand_number: int,
    kind: str,
    knocker: int,
    winner: int,
    points: int,
    knocker_deadwood: int,
    defender_deadwood: int,
) -> list[Event]:
    sheet, scored, won = scoresheet_win(
        state.scoresheet, seat=winner, points=points, ruleset=state.ruleset
    )
    events: list[Event] = [
        HandScored(
            hand_number=hand_number,
            kind=kind,
            knocker=knocker,
            winner=winner,
            points=points,
            knocker_deadwood=knocker_deadwood,
            defender_deadwood=defender_deadwood,
            games=scored,
        )
    ]
    return events + game_end_events(sheet, won, winner, state.ruleset)


def game_end_events(
    sheet: Scoresheet, won: list[int], winner: int, ruleset: Ruleset
) -> list[Event]:
    events: list[Event] = []
    for n in won:
        game = sheet.games[n - 1]
        events.append(
            GameWon(game=n, winner=winner, scores=list(game.scores), bonuses=list(game.bonuses))
        )
    match_won_by = match_winner(sheet, ruleset)
    if won and match_won_by is not None:
        events.append(MatchFinished(winner=match_won_by, reason="games"))
    return events
