"""Glicko-2, as Mark Glickman's "Example of the Glicko-2 system" (2013) defines it: steps 1
to 8, the new volatility found by the Illinois algorithm (step 5), and a player who played
no game in a period having only the deviation widened (step 6). Pure Python, no Django.

A club's rating period is one finished tournament (`tournaments.ratings`); every rated
match of it is one game of the period, scored 1 for the winner and 0 for the loser, each
opponent taken at the rating they had before the period. After every period the deviation
is kept within the club's bounds; a rating is provisional while its deviation is above the
club's threshold.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

# The paper's conversion between the Glicko and the Glicko-2 scales (step 2 and 8).
SCALE = 173.7178
CENTRE = 1500.0
# The convergence tolerance of step 5 (the paper's epsilon).
EPSILON = 0.000001


@dataclass(frozen=True)
class RatingSettings:
    """A club's rating settings (the issue's defaults)."""

    initial_rating: float = 1500.0
    initial_rd: float = 350.0
    initial_volatility: float = 0.06
    tau: float = 0.5
    rd_min: float = 30.0
    rd_max: float = 350.0
    provisional_rd: float = 110.0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> RatingSettings:
        known = {f: float(v) for f, v in (data or {}).items() if f in SETTING_NAMES}
        return cls(**known)

    def as_dict(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in SETTING_NAMES}


SETTING_NAMES = (
    "initial_rating",
    "initial_rd",
    "initial_volatility",
    "tau",
    "rd_min",
    "rd_max",
    "provisional_rd",
)


class InvalidRatingSettingsError(ValueError):
    """Settings that cannot rate anything (a bound out of order, a non-positive value)."""

    def __init__(self, message: str, field_name: str) -> None:
        # A template with the setting's name apart (%(name)s), for the catalogues.
        self.template, self.params = message, {"name": field_name}
        super().__init__(message % self.params)
        self.field_name = field_name


def settings_check(settings: RatingSettings) -> None:
    """Raise InvalidRatingSettingsError naming the first setting that cannot work."""
    for name in SETTING_NAMES:
        value = getattr(settings, name)
        if not math.isfinite(value) or (name != "initial_rating" and value <= 0):
            raise InvalidRatingSettingsError("%(name)s must be a positive number", name)
    if not 0 < settings.initial_rating < 10_000:
        message = "%(name)s must be between 0 and 10000"
        raise InvalidRatingSettingsError(message, "initial_rating")
    if settings.rd_min > settings.rd_max:
        raise InvalidRatingSettingsError("%(name)s must not exceed rd_max", "rd_min")
    if settings.rd_max > 1000:
        raise InvalidRatingSettingsError("%(name)s must be at most 1000", "rd_max")
    if settings.initial_volatility > 1 or settings.tau > 5:
        name = "initial_volatility" if settings.initial_volatility > 1 else "tau"
        raise InvalidRatingSettingsError("%(name)s is out of range", name)


class Rating(NamedTuple):
    """One player's rating on the Glicko scale: rating, deviation (RD), volatility. (A
    named tuple: made for every player of every period, it is cheaper than a dataclass.)"""

    rating: float
    rd: float
    volatility: float


def initial(settings: RatingSettings) -> Rating:
    return Rating(settings.initial_rating, settings.initial_rd, settings.initial_volatility)


def is_provisional(rating: Rating, settings: RatingSettings) -> bool:
    return rating.rd > settings.provisional_rd


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm (the paper's iteration)."""
    a = math.log(sigma * sigma)
    phi2, delta2 = phi * phi, delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, games: Sequence[tuple[Rating, float]], *, tau: float) -> Rating:
    """Steps 2 to 8 for one player and one period: `games` are (opponent before the
    period, score 1/0.5/0). With no games only the deviation widens (step 6). No bounds."""
    if not games:
        phi = player.rd / SCALE
        sigma = player.volatility
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    return _rate(player, [(*_scaled(o), score) for o, score in games], tau)


def _scaled(opponent: Rating) -> tuple[float, float]:
    """An opponent on the Glicko-2 scale: (mu_j, g(phi_j)) (step 2 and 3's g)."""
    return (opponent.rating - CENTRE) / SCALE, _g(opponent.rd / SCALE)


def _rate(player: Rating, games: Sequence[tuple[float, float, float]], tau: float) -> Rating:
    """Steps 3 to 8 with each opponent already scaled: (mu_j, g_j, score)."""
    mu = (player.rating - CENTRE) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    v_inv = 0.0
    total = 0.0
    for mu_j, g_j, score in games:
        e_j = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        v_inv += g_j * g_j * e_j * (1.0 - e_j)
        total += g_j * (score - e_j)
    v = 1.0 / v_inv
    delta = v * total
    sigma_new = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Rating(SCALE * mu_new + CENTRE, SCALE * phi_new, sigma_new)


def _bounded(rating: Rating, settings: RatingSettings) -> Rating:
    rd = min(max(rating.rd, settings.rd_min), settings.rd_max)
    return rating if rd == rating.rd else rating._replace(rd=rd)


def _widened(rating: Rating, periods: int, settings: RatingSettings) -> Rating:
    """`periods` periods without a game: step 6 once a period, each time within bounds
    (the same arithmetic as `rate` without games, then `_bounded`)."""
    if periods <= 0:
        return rating
    rd, sigma = rating.rd, rating.volatility
    rd_min, rd_max = settings.rd_min, settings.rd_max
    for _ in range(periods):
        phi = rd / SCALE
        rd = min(max(math.sqrt(phi * phi + sigma * sigma) * SCALE, rd_min), rd_max)
    return rating if rd == rating.rd else Rating(rating.rating, rd, sigma)


def rating_widened(rating: Rating, periods: int, settings: RatingSettings) -> Rating:
    """A rating after `periods` rating periods without a game (its deviation widened as the
    list widens it): where a report shows a player who did not play as the list stood."""
    return _widened(rating, periods, settings)


# --- a club's periods ------------------------------------------------------------------------


@dataclass(frozen=True)
class PeriodGame:
    """One rated match of a period: its winner and loser (player ids)."""

    winner: int
    loser: int


@dataclass(frozen=True)
class PeriodEntry:
    """What one period did to a player who played in it."""

    period: int  # index of the period in the club's order
    player: int
    before: Rating
    after: Rating
    played: tuple[tuple[int, float], ...]  # (opponent, score), in the period's order


@dataclass
class ClubRatings:
    """A club's ratings after a sequence of periods: the rating of everyone who has one,
    their rated matches and periods played, and each played period's entry.

    Widening is applied lazily: `current[p]` is up to date as of period `as_of[p]` (the
    last they played, or when it was last brought up to date); `ratings_now` widens it
    through the last period applied (`last`), one period at a time, exactly as if it had
    been widened in every period (a club of 500 with 50 a night widens 450 a period)."""

    current: dict[int, Rating] = field(default_factory=dict)
    matches: dict[int, int] = field(default_factory=dict)
    periods: dict[int, int] = field(default_factory=dict)
    entries: list[PeriodEntry] = field(default_factory=list)
    as_of: dict[int, int] = field(default_factory=dict)
    last: int = -1


def ratings_now(state: ClubRatings, settings: RatingSettings) -> dict[int, Rating]:
    """Everyone's rating after the last period applied (brings `state` up to date)."""
    for player, rating in state.current.items():
        behind = state.last - state.as_of.get(player, state.last)
        if behind > 0:
            state.current[player] = _widened(rating, behind, settings)
            state.as_of[player] = state.last
    return state.current


def period_apply(
    state: ClubRatings,
    games: Iterable[PeriodGame],
    settings: RatingSettings,
    *,
    period: int,
) -> list[PeriodEntry]:
    """Rate one period into `state` (changed in place): everyone who played is rated
    against their opponents' ratings before the period; everyone else with a rating has
    the deviation widened (lazily: `ratings_now`); every deviation is kept within the
    bounds. Returns the entries of the players who played, by player id."""
    played: dict[int, list[tuple[int, float]]] = {}
    for game in games:
        if game.winner == game.loser:
            continue
        played.setdefault(game.winner, []).append((game.loser, 1.0))
        played.setdefault(game.loser, []).append((game.winner, 0.0))
    start = initial(settings)
    before: dict[int, Rating] = {}
    for player in played:
        rating = state.current.get(player)
        if rating is None:
            before[player] = start
        else:
            behind = period - 1 - state.as_of.get(player, period - 1)
            before[player] = _widened(rating, behind, settings)
    scaled = {player: _scaled(rating) for player, rating in before.items()}
    entries = []
    for player in sorted(played):
        own = before[player]
        games_of = [(*scaled[opp], score) for opp, score in played[player]]
        new = _bounded(_rate(own, games_of, settings.tau), settings)
        state.current[player] = new
        state.as_of[player] = period
        state.matches[player] = state.matches.get(player, 0) + len(games_of)
        state.periods[player] = state.periods.get(player, 0) + 1
        entries.append(PeriodEntry(period, player, own, new, tuple(played[player])))
    state.last = period
    state.entries.extend(entries)
    return entries


def club_rate(
    periods: Iterable[Iterable[PeriodGame]],
    settings: RatingSettings,
    *,
    state: ClubRatings | None = None,
) -> ClubRatings:
    """Every period of a club in order, from nobody rated (or from `state`, the ratings
    after the periods before the first of `periods`, as `state_after` restores them): the
    rating history (`current` brought up to date after the last period)."""
    if state is None:
        state = ClubRatings()
    for index, games in enumerate(periods, start=state.last + 1):
        period_apply(state, games, settings, period=index)
    ratings_now(state, settings)
    return state


def state_after(
    latest: Mapping[int, tuple[int, Rating]],
    periods: Mapping[int, int],
    matches: Mapping[int, int],
    *,
    last: int,
) -> ClubRatings:
    """The ratings after period `last` as `club_rate` leaves them before widening them to
    the end, restored from each player's latest entry up to `last` (`latest`: player ->
    (its period, the rating after it)), how many periods they played (`periods`) and their
    rated matches (`matches`): everyone's rating as of the last period they played, widened
    lazily from there as `club_rate` would. (Re-rating from a later period then computes
    only from it, with exactly the same numbers.)"""
    state = ClubRatings(last=last)
    for player, (period, rating) in latest.items():
        state.current[player] = rating
        state.as_of[player] = period
    state.periods.update(periods)
    state.matches.update(matches)
    return state
