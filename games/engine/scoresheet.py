"""The Hollywood scoresheet (RULES.md section 8): several games scored at once, entered in
order by each player, each closing when a player reaches the game target.

`scoresheet_win` is the scoring rule; `scoresheet_add` and `scoresheet_close` are the two
plain state changes that events (HandScored, GameWon) apply on replay."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.engine.ruleset import Ruleset

Pair = tuple[int, int]


@dataclass(frozen=True)
class GameScore:
    scores: Pair = (0, 0)  # points per seat, before end-of-game bonuses
    entered: tuple[bool, bool] = (False, False)
    winner: int | None = None  # None while the game is open
    hands_won: Pair = (0, 0)  # hands whose points went into this game, per seat
    bonuses: Pair = (0, 0)  # end-of-game bonuses, set when the game ends

    @property
    def open(self) -> bool:
        return self.winner is None

    @property
    def totals(self) -> Pair:
        return (self.scores[0] + self.bonuses[0], self.scores[1] + self.bonuses[1])


@dataclass(frozen=True)
class Scoresheet:
    games: tuple[GameScore, ...]


def scoresheet_new(ruleset: Ruleset) -> Scoresheet:
    return Scoresheet(games=tuple(GameScore() for _ in range(ruleset.games)))


def _set(pair: Sequence[Any], seat: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def games_to_score(sheet: Scoresheet, *, seat: int) -> list[int]:
    """The games (1-based) a hand won by `seat` scores in: first the lowest open game the
    player has not entered yet, then every open game they have entered (RULES 8)."""
    open_games = [n for n, g in enumerate(sheet.games, 1) if g.open]
    entering = next((n for n in open_games if not sheet.games[n - 1].entered[seat]), None)
    return [n for n in open_games if sheet.games[n - 1].entered[seat] or n == entering]


def scoresheet_add(
    sheet: Scoresheet, *, seat: int, points: int, games: Sequence[int]
) -> Scoresheet:
    """Add a hand's points to the given games for `seat` (entering them)."""
    new = list(sheet.games)
    for n in games:
        g = new[n - 1]
        new[n - 1] = replace(
            g,
            scores=_set(g.scores, seat, g.scores[seat] + points),
            entered=_set(g.entered, seat, True),
            hands_won=_set(g.hands_won, seat, g.hands_won[seat] + 1),
        )
    return Scoresheet(games=tuple(new))


def scoresheet_close(
    sheet: Scoresheet, *, game: int, winner: int, bonuses: Sequence[int]
) -> Scoresheet:
    new = list(sheet.games)
    new[game - 1] = replace(new[game - 1], winner=winner, bonuses=(bonuses[0], bonuses[1]))
    return Scoresheet(games=tuple(new))


def scoresheet_adjust(sheet: Scoresheet, *, seat: int, game: int, points: int) -> Scoresheet:
    """A ruling: add (or with negative points, remove) points in one game."""
    new = list(sheet.games)
    g = new[game - 1]
    new[game - 1] = replace(g, scores=_set(g.scores, seat, g.scores[seat] + points))
    return Scoresheet(games=tuple(new))


def end_of_game_bonuses(game: GameScore, *, winner: int, ruleset: Ruleset) -> Pair:
    """RULES 8 variants: game bonus to the winner, box bonus per hand won in the game to
    each player, and the winner's total doubled when the loser scored nothing."""
    bonuses = [ruleset.box_bonus * game.hands_won[0], ruleset.box_bonus * game.hands_won[1]]
    bonuses[winner] += ruleset.game_bonus
    if ruleset.shutout_doubles and game.scores[1 - winner] == 0:
        bonuses[winner] += game.scores[winner] + bonuses[winner]
    return (bonuses[0], bonuses[1])


def games_reaching_target(sheet: Scoresheet, *, seat: int, ruleset: Ruleset) -> list[int]:
    return [
        n for n, g in enumerate(sheet.games, 1) if g.open and g.scores[seat] >= ruleset.game_target
    ]


def scoresheet_close_reached(
    sheet: Scoresheet, *, seat: int, ruleset: Ruleset
) -> tuple[Scoresheet, list[int]]:
    """Close every open game in which `seat` has reached the target."""
    won = games_reaching_target(sheet, seat=seat, ruleset=ruleset)
    for n in won:
        bonuses = end_of_game_bonuses(sheet.games[n - 1], winner=seat, ruleset=ruleset)
        sheet = scoresheet_close(sheet, game=n, winner=seat, bonuses=bonuses)
    return sheet, won


def scoresheet_win(
    sheet: Scoresheet, *, seat: int, points: int, ruleset: Ruleset
) -> tuple[Scoresheet, list[int], list[int]]:
    """Score a hand won by `seat`: returns (new sheet, games scored, games won by it)."""
    scored = games_to_score(sheet, seat=seat)
    sheet = scoresheet_add(sheet, seat=seat, points=points, games=scored)
    sheet, won = scoresheet_close_reached(sheet, seat=seat, ruleset=ruleset)
    return sheet, scored, won


def games_won(sheet: Scoresheet) -> Pair:
    wins = [g.winner for g in sheet.games]
    return (wins.count(0), wins.count(1))


def match_winner(sheet: Scoresheet, ruleset: Ruleset) -> int | None:
    """The match winner once the match is over: all games ended, or (variant) a player has
    won a majority of the games. None while the match goes on."""
    wins = games_won(sheet)
    majority = len(sheet.games) // 2 + 1
    all_ended = all(not g.open for g in sheet.games)
    if not all_ended and not ruleset.end_when_decided:
        return None
    for seat in (0, 1):
        if wins[seat] >= majority:
            return seat
    return None


def scoresheet_totals(sheet: Scoresheet) -> Pair:
    """Points per seat over all games, bonuses included."""
    return (
        sum(g.totals[0] for g in sheet.games),
        sum(g.totals[1] for g in sheet.games),
    )


def scoresheet_to_dict(sheet: Scoresheet) -> dict[str, Any]:
    return {
        "games": [
            {
                "game": n,
                "scores": list(g.scores),
                "entered": list(g.entered),
                "winner": g.winner,
                "hands_won": list(g.hands_won),
                "bonuses": list(g.bonuses),
                "totals": list(g.totals),
            }
            for n, g in enumerate(sheet.games, 1)
        ],
        "games_won": list(games_won(sheet)),
        "totals": list(scoresheet_totals(sheet)),
    }


def scoresheet_from_dict(d: dict[str, Any]) -> Scoresheet:
    return Scoresheet(
        games=tuple(
            GameScore(
                scores=(g["scores"][0], g["scores"][1]),
                entered=(g["entered"][0], g["entered"][1]),
                winner=g["winner"],
                hands_won=(g["hands_won"][0], g["hands_won"][1]),
                bonuses=(g["bonuses"][0], g["bonuses"][1]),
            )
            for g in d["games"]
        )
    )


def score_hand(
    ruleset: Ruleset, *, knocker: int, gin: bool, knocker_deadwood: int, defender_deadwood: int
) -> tuple[str, int, int]:
    """RULES 7: (kind, winner seat, points) of a knocked hand, K = knocker's deadwood, D =
    the defender's deadwood after layoffs. Used for online play and table mode alike."""
    k, d = knocker_deadwood, defender_deadwood
    if gin:
        return "gin", knocker, d + ruleset.gin_bonus
    if k < d:
        return "knock", knocker, d - k
    return "undercut", 1 - knocker, ruleset.undercut_bonus + (k - d)
