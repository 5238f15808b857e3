"""Swiss floats: nobody floats down (or up) two rounds in a row when a pairing avoids it."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.tournaments.pairing.helpers import Simulation, perfect_matchings
from tournaments.pairing import Pair, Result, SwissPlayer, count_rematches, swiss_pair
from tournaments.pairing.floats import Floats, last_round_floats


def field(scores: dict[int, int], order: list[int]) -> list[SwissPlayer]:
    return [SwissPlayer(id=p, score=scores[p], rank=r) for r, p in enumerate(order, 1)]


def boards(pairs: list[Pair]) -> set[frozenset[int]]:
    return {frozenset(p.players) for p in pairs}


def test_last_round_floats_come_from_the_scores_before_it():
    results = [
        Result(1, 1, 2, 1),
        Result(1, 3, 4, 3),
        Result(1, 5, None, 5),
        # Round 2: 1 (1 point) meets 4 (none); 2 and 3 draw... 2 has 0, 3 has 1; 5 meets 6.
        Result(2, 4, 1, 4),
        Result(2, 2, 3, None),
        Result(2, 5, 3, 5),
    ]
    assert last_round_floats(results) == Floats(down=frozenset({1, 3}), up=frozenset({4, 2}))
    assert last_round_floats(results[:3]) == Floats(down=frozenset({5}))
    assert last_round_floats([]) == Floats()


def test_last_rounds_bye_does_not_float_down_again():
    # Round 1 of five: 1-3 and 2-4 (the top two won), 5 had the bye, a down-float.
    results = [Result(1, 1, 3, 1), Result(1, 2, 4, 2), Result(1, 5, None, 5)]
    played = {frozenset((1, 3)), frozenset((2, 4))}
    players = field({1: 1, 2: 1, 5: 1, 3: 0, 4: 0}, [1, 2, 5, 3, 4])
    without = swiss_pair(players=players, played=played, had_bye={5})
    # Without the history, 5 (lowest of the three on 1 point) floats down again.
    assert boards(without) == {frozenset((1, 2)), frozenset((3, 5)), frozenset((4,))}
    pairs = swiss_pair(players=players, played=played, had_bye={5}, results=results)
    # With it, 2 floats instead; still top against bottom as far as possible, same bye.
    assert boards(pairs) == {frozenset((1, 5)), frozenset((2, 3)), frozenset((4,))}


def test_a_repeated_down_float_is_kept_when_only_a_rematch_avoids_it():
    results = [Result(1, 1, 3, 1), Result(1, 2, 4, 2), Result(1, 5, None, 5)]
    # 1 and 2 have both met 5 already (say, in an earlier event's carried-over history).
    played = {frozenset((1, 3)), frozenset((2, 4)), frozenset((1, 5)), frozenset((2, 5))}
    players = field({1: 1, 2: 1, 5: 1, 3: 0, 4: 0}, [1, 2, 5, 3, 4])
    pairs = swiss_pair(players=players, played=played, had_bye={5}, results=results)
    assert count_rematches(pairs, played) == 0
    assert boards(pairs) == {frozenset((1, 2)), frozenset((3, 5)), frozenset((4,))}


def test_a_player_who_floated_up_does_not_float_up_again():
    # Found by simulation: round 2 floated 4 up against 5; the old pairing floated 4 up
    # again against 3, the leader.
    results = [
        *(Result(1, 1, 4, 1), Result(1, 5, 2, 5), Result(1, 3, 6, 3)),
        *(Result(2, 1, 3, 3), Result(2, 4, 5, 4), Result(2, 2, 6, 6)),
    ]
    played = {frozenset((r.player1, r.player2)) for r in results}
    scores = {3: 2, 1: 1, 4: 1, 5: 1, 6: 1, 2: 0}
    players = field(scores, [3, 1, 4, 5, 6, 2])
    without = swiss_pair(players=players, played=played, had_bye=set())
    assert frozenset((3, 4)) in boards(without)
    pairs = swiss_pair(players=players, played=played, had_bye=set(), results=results)
    assert boards(pairs) == {frozenset((3, 5)), frozenset((1, 6)), frozenset((2, 4))}


def test_an_unavoidable_rematch_goes_where_it_avoids_a_repeated_up_float():
    # Found by the property below (n=5, seed=2227): one rematch is unavoidable in round 5.
    # 102 has the bye (the only one without); 104 (3 points) has only 101 left to meet.
    results = [
        *(Result(1, 101, 103, 103), Result(1, 104, 102, 102), Result(1, 105, None, 105)),
        *(Result(2, 103, 105, 105), Result(2, 102, 101, 102), Result(2, 104, None, 104)),
        *(Result(3, 105, 102, 102), Result(3, 104, 103, 104), Result(3, 101, None, 101)),
        # 101 (1 point) floats up against 102 (3).
        *(Result(4, 105, 104, 104), Result(4, 101, 102, 101), Result(4, 103, None, 103)),
    ]
    played = {frozenset((r.player1, r.player2)) for r in results if r.player2 is not None}
    had_bye = {105, 104, 101, 103}
    players = field({102: 3, 104: 3, 101: 2, 103: 2, 105: 2}, [102, 104, 101, 103, 105])
    without = swiss_pair(players=players, played=played, had_bye=had_bye)
    # The fresh pair 104-101 floats 101 up again; the rematch falls on 103-105.
    assert boards(without) == {frozenset((104, 101)), frozenset((103, 105)), frozenset((102,))}
    pairs = swiss_pair(players=players, played=played, had_bye=had_bye, results=results)
    # The same score differences and one rematch all the same, but 103 floats up instead.
    assert boards(pairs) == {frozenset((104, 103)), frozenset((101, 105)), frozenset((102,))}
    assert count_rematches(pairs, played) == count_rematches(without, played) == 1


def test_an_unavoidable_rematch_inside_the_top_group_avoids_a_repeated_down_float():
    # Found by the property below (n=6, seed=33): 105 floated down in round 3.
    results = [
        *(Result(1, 101, 104, 101), Result(1, 105, 102, 105), Result(1, 103, 106, 106)),
        *(Result(2, 101, 105, 105), Result(2, 102, 106, 102), Result(2, 104, 103, 103)),
        *(Result(3, 105, 103, 103), Result(3, 106, 101, 101), Result(3, 102, 104, 104)),
    ]
    played = {frozenset((r.player1, r.player2)) for r in results}
    scores = {101: 2, 103: 2, 105: 2, 102: 1, 104: 1, 106: 1}
    players = field(scores, [101, 103, 105, 102, 104, 106])
    without = swiss_pair(players=players, played=played, had_bye=set())
    # Without the history 105 floats down again (to 104, fresh) and 102 replays 106.
    assert boards(without) == {frozenset((101, 103)), frozenset((105, 104)), frozenset((102, 106))}
    pairs = swiss_pair(players=players, played=played, had_bye=set(), results=results)
    # 105 replays 101 in the top group and 103 floats down instead.
    assert boards(pairs) == {frozenset((101, 105)), frozenset((103, 102)), frozenset((104, 106))}
    assert count_rematches(pairs, played) == count_rematches(without, played) == 1


def costs(
    matching: list[tuple[int, int]], sim: Simulation, played: set[frozenset[int]]
) -> tuple[int, tuple[tuple[int, tuple[int, ...]], ...], int, int]:
    """(rematches, floats, repeated down-floats, repeated up-floats) of a pairing.

    Floats, as FIDE's Dutch system ranks them: for each score from the top, how many pairs
    have one player at or above it and the other below it (the players floated out of the
    groups that high), then those players' scores (lower is better: a resident rather than a
    floater from above floats on). Pairing brackets top down, the most pairs each, floaters
    from above paired first, makes these lexicographically smallest; the counts also fix the
    sum of the pairs' score differences.
    """
    score = sim.score
    levels = sorted(set(score.values()), reverse=True)[:-1]
    crossing: list[list[int]] = [[] for _ in levels]
    rematches = down = up = 0
    for a, b in matching:
        rematches += frozenset((a, b)) in played
        if score[a] == score[b]:
            continue
        high, low = (a, b) if score[a] > score[b] else (b, a)
        for k, level in enumerate(levels):
            if score[high] >= level > score[low]:
                crossing[k].append(score[high])
        down += high in sim.floated_down
        up += low in sim.floated_up
    floats = tuple((len(c), tuple(sorted(c, reverse=True))) for c in crossing)
    return rematches, tuple(floats), down, up


def repeats_decided_in(
    matching: list[tuple[int, int]], sim: Simulation, group: int
) -> tuple[int, int]:
    """Repeated (down, up) floats decided in the bracket of score `group`: a player of that
    score floated out of it, or one of it floated up to meet a floater from above."""
    score = sim.score
    down = up = 0
    for a, b in matching:
        if score[a] != score[b]:
            high, low = (a, b) if score[a] > score[b] else (b, a)
            down += score[high] == group and high in sim.floated_down
            up += score[low] == group and low in sim.floated_up
    return down, up


def first_repeat(matching: list[tuple[int, int]], sim: Simulation) -> int | None:
    """The highest score group whose bracket decided a repeated float."""
    groups = sorted(set(sim.score.values()), reverse=True)
    return next((g for g in groups if any(repeats_decided_in(matching, sim, g))), None)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(min_value=3, max_value=10), seed=st.integers(0, 10_000))
# Each once made an unavoidable rematch fall where it kept a repeated float that another
# placement of it avoided (see the two tests above).
@example(n=5, seed=2227)
@example(n=6, seed=33)
@example(n=8, seed=223)
@example(n=9, seed=198)
def test_no_avoidable_repeated_float_over_a_simulated_event(n, seed):
    sim = Simulation(n, seed)
    for _ in range(n):
        played = set(sim.played)
        pairs = sim.pair()
        mine = [(p.first, p.second) for p in pairs if p.second is not None]
        ours = costs(mine, sim, played)
        byes = [p.first for p in pairs if p.second is None]
        # Brute force over every pairing with the same bye (the bye has its own rules).
        every = [
            (m, costs(m, sim, played))
            for m in perfect_matchings([p for p in sim.ids if p not in byes])
        ]
        assert ours[0] == min(theirs[0] for _, theirs in every)
        group = first_repeat(mine, sim)
        if group is not None:
            # Brackets are paired top down: those above this one had no repeated float.
            above = {frozenset(p) for p in mine if min(sim.score[x] for x in p) > group}
            for matching, theirs in every:
                # No pairing with the same rematches and floats, and the same pairs above,
                # has fewer repeated floats decided here (down-floats first, then up-floats).
                # (Other brackets' choices can matter: see the note at the end of `swiss`.)
                if theirs[:2] == ours[:2] and above <= {frozenset(p) for p in matching}:
                    assert repeats_decided_in(matching, sim, group) >= repeats_decided_in(
                        mine, sim, group
                    ), (matching, pairs)
        sim.play(pairs)
