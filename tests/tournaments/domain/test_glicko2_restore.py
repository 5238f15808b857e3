"""Re-rating from a later period: the ratings restored from the history of the periods
before it (`state_after`) and rated on from there equal rating every period again."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain.glicko2 import PeriodGame, RatingSettings, club_rate, state_after


def _periods(seed: int, count: int) -> list[list[PeriodGame]]:
    rng = random.Random(seed)
    players = list(range(1, 13))
    out = []
    for _ in range(count):
        field = rng.sample(players, rng.choice([4, 6, 8]))
        out.append([PeriodGame(a, b) for a, b in zip(field[::2], field[1::2], strict=True)])
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), count=st.integers(1, 12), data=st.data())
def test_rating_on_from_a_restored_state_equals_rating_everything(seed, count, data):
    periods = _periods(seed, count)
    split = data.draw(st.integers(0, count))
    rules = RatingSettings(tau=0.4)
    whole = club_rate(periods, rules)
    latest = {e.player: (e.period, e.after) for e in whole.entries if e.period < split}
    played: dict[int, int] = {}
    for e in whole.entries:
        if e.period < split:
            played[e.player] = played.get(e.player, 0) + 1
    matches: dict[int, int] = {}
    for games in periods[:split]:
        for g in games:
            matches[g.winner] = matches.get(g.winner, 0) + 1
            matches[g.loser] = matches.get(g.loser, 0) + 1
    restored = state_after(latest, played, matches, last=split - 1)
    again = club_rate(periods[split:], rules, state=restored)
    assert again.current == whole.current
    assert again.matches == whole.matches and again.periods == whole.periods
    assert again.entries == [e for e in whole.entries if e.period >= split]
