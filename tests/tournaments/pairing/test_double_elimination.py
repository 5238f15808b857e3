"""Double elimination over random fields, results and withdrawals."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.double_elimination import (
    BYE,
    LOSERS,
    NOT_NEEDED,
    PLAYED,
    WALKOVER,
    BracketResultError,
    double_elimination,
    first_possible_rematch_round,
)


def run(n: int, seed: int, *, reset: bool = True, withdraw_rate: float = 0.0):
    """Play a whole event wave by wave with random winners; returns the final answer, the
    waves played (each the players of its matches) and the withdrawals."""
    rng = random.Random(seed)
    ids = [100 + s for s in range(1, n + 1)]
    results: dict[str, int] = {}
    withdrawn: list[int] = []
    waves = []
    while True:
        state = double_elimination(seeded=ids, results=results, withdrawn=withdrawn, reset=reset)
        if state.over:
            return state, waves, withdrawn
        assert state.next_wave, "an event that is not over has something to play"
        waves.append([p for m in state.next_wave for p in m.players])
        active = [p for p in ids if p not in state.eliminated and p not in withdrawn]
        if withdraw_rate and rng.random() < withdraw_rate and len(active) > 1:
            withdrawn.append(rng.choice(active))
            continue
        for match in state.next_wave:
            results[match.id] = rng.choice(match.players)


def bracket_k(n: int) -> int:
    return (n - 1).bit_length()


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 64),
    seed=st.integers(0, 10**6),
    reset=st.booleans(),
    withdraw_rate=st.sampled_from([0.0, 0.0, 0.15, 0.5]),
)
def test_everyone_but_the_champion_is_eliminated_exactly_once(n, seed, reset, withdraw_rate):
    state, _, _ = run(n, seed, reset=reset, withdraw_rate=withdraw_rate)
    decided = [m for m in state.matches if m.status in (PLAYED, WALKOVER)]
    losses = Counter(m.loser for m in decided)
    champion = state.champion
    gf1 = next(m for m in state.matches if m.id == "GF1")
    assert set(state.eliminated) == {100 + s for s in range(1, n + 1)} - {champion}
    for player, match_id in state.eliminated.items():
        # Out after a second loss, or after losing GF1 as the winners' champion without reset.
        one_loss_out = not reset and player == gf1.players[0] == gf1.loser
        assert losses[player] == (1 if one_loss_out else 2), (player, match_id)
        last = [m for m in decided if m.loser == player][-1]
        assert last.id == match_id
    assert losses[champion] <= 1
    # Byes and empty matches put nobody out, and every match was decided or not needed.
    assert all(m.status in (PLAYED, WALKOVER, BYE, "empty", NOT_NEEDED) for m in state.matches)
    assert [p for group in state.places for p in group].count(champion) == 1
    assert sorted(p for group in state.places for p in group) == list(range(101, 101 + n))


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 10**6), reset=st.booleans())
def test_the_reset_is_played_only_when_the_losers_champion_wins_the_grand_final(n, seed, reset):
    state, _, _ = run(n, seed, reset=reset)
    by_id = {m.id: m for m in state.matches}
    gf1 = by_id["GF1"]
    losers_champion_won = gf1.winner == gf1.players[1]
    if not reset:
        assert "GF2" not in by_id
        assert state.champion == gf1.winner
    elif losers_champion_won:
        assert by_id["GF2"].status == PLAYED
        assert set(by_id["GF2"].players) == set(gf1.players)
        assert state.champion == by_id["GF2"].winner
    else:
        assert by_id["GF2"].status == NOT_NEEDED
        assert state.champion == gf1.winner


@settings(max_examples=200, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 10**6))
def test_no_rematch_before_the_round_where_a_bracket_cannot_prevent_one(n, seed):
    state, _, _ = run(n, seed)
    k = bracket_k(n)
    safe_until = first_possible_rematch_round(k)
    met: set[frozenset[int]] = set()
    for match in sorted(state.matches, key=lambda m: m.wave):
        if match.status != PLAYED:
            continue
        pair = frozenset(match.players)
        if match.bracket == LOSERS and match.round < safe_until:
            assert pair not in met, (match.id, sorted(pair))
        met.add(pair)


def _model_first_possible_rematch(k: int) -> int:
    """Independent model over the bracket's own pointers: which first-round blocks can feed
    each side of a losers' match, and the first round where two sides' blocks nest."""
    n = 2**k
    state = double_elimination(seeded=list(range(1, n + 1)), results={})
    origins: dict[tuple[str, int], set[tuple[int, int]]] = {}
    first = 2 * k - 2
    for match in sorted(state.matches, key=lambda m: m.wave):
        if match.bracket == "W" and match.loser_to is not None:
            key = (match.loser_to.match, match.loser_to.side)
            origins.setdefault(key, set()).add((match.round, match.index - 1))
        if match.bracket != LOSERS:
            continue
        a, b = origins.get((match.id, 0), set()), origins.get((match.id, 1), set())
        nests = any(
            r1 != r2 and (i1 >> (r2 - r1) == i2 if r1 < r2 else i2 >> (r1 - r2) == i1)
            for r1, i1 in a
            for r2, i2 in b
        )
        if nests:
            first = min(first, match.round)
        if match.winner_to is not None:
            key = (match.winner_to.match, match.winner_to.side)
            origins.setdefault(key, set()).update(a | b)
    return first


def _bound(k: int) -> int:
    """L(2r-2) holds players dropped in rounds 1..r, each round's on 2^r first-round slots of
    its own; L(2r-1) merges two such sides (2^(r+1) slots a round). The first round where
    those no longer fit in the 2^k slots is where no bracket can keep all pairs apart."""
    for j in range(2, 2 * k - 2):
        if j % 2 == 0:
            r = j // 2 + 1
            needed = r * 2**r
        else:
            r = (j + 1) // 2
            needed = r * 2 ** (r + 1)
        if needed > 2**k:
            return j
    return 2 * k - 2


@pytest.mark.parametrize("k", range(1, 10))
def test_the_drop_order_reaches_the_bound_for_every_bracket_size(k):
    assert _model_first_possible_rematch(k) == first_possible_rematch_round(k) == _bound(k)


@settings(deadline=None)
@given(n=st.integers(2, 64))
def test_byes_go_to_the_top_seeds_and_waves_share_no_player(n):
    ids = list(range(1, n + 1))
    state = double_elimination(seeded=ids, results={})
    size = 2 ** bracket_k(n)
    byes = sorted(m.winner for m in state.matches if m.id.startswith("W1-") and m.status == BYE)
    assert byes == list(range(1, size - n + 1))
    assert state.wave == 1
    players = [p for m in state.next_wave for p in m.players]
    assert len(players) == len(set(players)) == 2 * (n - size // 2)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 64), seed=st.integers(0, 10**6), reset=st.booleans())
def test_waves_follow_the_schedule(n, seed, reset):
    _, waves, _ = run(n, seed, reset=reset)
    k = bracket_k(n)
    for players in waves:
        # Matches of one wave share no player: they can be played at once.
        assert len(players) == len(set(players))
    assert len(waves) <= 2 * k + (1 if reset else 0)


def test_a_four_player_event_by_hand():
    ids = [1, 2, 3, 4]
    results = {"W1-1": 1, "W1-2": 2}
    state = double_elimination(seeded=ids, results=results)
    assert state.wave == 2
    assert {m.id: m.players for m in state.next_wave} == {"W2-1": (1, 2), "L1-1": (4, 3)}
    assert [p.players for p in state.pairings] == [(1, 2), (3, 4)]
    results |= {"W2-1": 1, "L1-1": 4}
    state = double_elimination(seeded=ids, results=results)
    assert [(m.id, m.players) for m in state.next_wave] == [("L2-1", (4, 2))]
    results |= {"L2-1": 4}
    state = double_elimination(seeded=ids, results=results)
    assert [(m.id, m.players) for m in state.next_wave] == [("GF1", (1, 4))]
    state = double_elimination(seeded=ids, results=results | {"GF1": 4})
    assert [(m.id, m.players) for m in state.next_wave] == [("GF2", (4, 1))]
    state = double_elimination(seeded=ids, results=results | {"GF1": 4, "GF2": 4})
    assert state.over and state.champion == 4 and state.wave is None
    assert state.places == ((4,), (1,), (2,), (3,))
    no_reset = double_elimination(seeded=ids, results=results | {"GF1": 4}, reset=False)
    assert no_reset.champion == 4 and no_reset.eliminated[1] == "GF1"


def test_bad_results_are_refused_by_name():
    ids = [1, 2, 3]
    with pytest.raises(BracketResultError) as unknown:
        double_elimination(seeded=ids, results={"W9-1": 1})
    assert unknown.value.code == "unknown_match"
    with pytest.raises(BracketResultError) as bye:
        double_elimination(seeded=ids, results={"W1-1": 1})  # seed 1's bye
    assert bye.value.code == "not_ready"
    with pytest.raises(BracketResultError) as early:
        double_elimination(seeded=ids, results={"W2-1": 1})
    assert early.value.code == "not_ready"
    with pytest.raises(BracketResultError) as stranger:
        double_elimination(seeded=ids, results={"W1-2": 1})
    assert stranger.value.code == "not_a_player"
    with pytest.raises(ValueError):
        double_elimination(seeded=[1], results={})
    with pytest.raises(ValueError):
        double_elimination(seeded=[1, 1], results={})


def test_a_withdrawn_player_loses_by_walkover_and_is_out_once():
    ids = [1, 2, 3, 4]
    state = double_elimination(seeded=ids, results={"W1-1": 1}, withdrawn=[2])
    by_id = {m.id: m for m in state.matches}
    assert by_id["W1-2"].status == WALKOVER and by_id["W1-2"].winner == 3
    # 2 dropped into L1 and loses there by walkover too: out once, in L1.
    assert by_id["L1-1"].status == WALKOVER and by_id["L1-1"].winner == 4
    assert state.eliminated == {2: "L1-1"}
    assert [m.id for m in state.next_wave] == ["W2-1"]


def test_the_bracket_as_plain_data_points_where_players_go():
    state = double_elimination(seeded=[1, 2, 3], results={"W1-2": 3})
    data = {m["id"]: m for m in (match.as_data() for match in state.matches)}
    assert json.loads(json.dumps(data)) == data
    assert data["W1-1"] == {
        "id": "W1-1",
        "bracket": "W",
        "round": 1,
        "index": 1,
        "wave": 1,
        "players": [1, None],
        "seeds": [1, None],
        "status": "bye",
        "winner": 1,
        "loser": None,
        "winner_to": {"match": "W2-1", "side": 0},
        "loser_to": {"match": "L1-1", "side": 0},
    }
    assert data["W1-2"]["winner"] == 3 and data["W2-1"]["players"] == [1, 3]
    assert data["L1-1"]["players"] == [None, 2] and data["L1-1"]["status"] == "bye"
    assert data["GF1"]["winner_to"] == {"match": "GF2", "side": 0}
