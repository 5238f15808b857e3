"""A single knockout as a drawable bracket (tournaments.pairing.knockout_bracket): every
match from the first round to the final, played, paired or still to come, agrees with the
rounds the knockout pairs, over random fields and results."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import knockout_first_round, knockout_next_round
from tournaments.pairing.knockout_bracket import Board, knockout_bracket, knockout_places


def _play(seeded: list[int], rng: random.Random, rounds: int) -> list[list[Board]]:
    """`rounds` rounds of the knockout as the tournament pairs and records them."""
    played: list[list[Board]] = []
    pairs = knockout_first_round(seeded)
    for _ in range(rounds):
        if not pairs:
            break
        boards = [
            Board(p.first, p.second, p.first if p.second is None else rng.choice(p.players))
            for p in pairs
        ]
        played.append(boards)
        pairs = knockout_next_round([b.winner for b in boards])
    return played


@settings(deadline=None, max_examples=60)
@given(st.integers(2, 64), st.integers(0, 7), st.randoms(use_true_random=False))
def test_the_bracket_agrees_with_the_rounds_played(n, rounds, rng):
    seeded = list(range(100, 100 + n))
    played = _play(seeded, rng, rounds)
    bracket = knockout_bracket(seeded=seeded, rounds=played)
    size = 1 << (n - 1).bit_length()
    assert len(bracket.matches) == size - 1  # every match, to come or not
    by_id = {m.id: m for m in bracket.matches}
    for r, boards in enumerate(played, 1):
        for i, board in enumerate(boards, 1):
            m = by_id[f"K{r}-{i}"]
            assert m.players == (board.first, board.second)
            assert m.winner == board.winner
    for m in bracket.matches:
        if m.winner_to is not None:  # where the winner goes is where they play next
            nxt = by_id[m.winner_to.match]
            if m.winner is not None:
                assert nxt.players[m.winner_to.side] == m.winner
        if m.status == "played":
            assert {m.winner, m.loser} == set(m.players)
    final = by_id[f"K{size.bit_length() - 1}-1"]
    assert final.winner_to is None and bracket.champion == final.winner
    finished = len(played) == size.bit_length() - 1
    assert (bracket.champion is not None) == finished


def test_byes_go_to_the_top_seeds_before_round_one_is_paired():
    bracket = knockout_bracket(seeded=[1, 2, 3, 4, 5])
    first = [m for m in bracket.matches if m.round == 1]
    assert [(m.seeds, m.status) for m in first] == [
        ((1, None), "bye"), ((4, 5), "ready"), ((2, None), "bye"), ((3, None), "bye")]  # fmt: skip
    second = [m for m in bracket.matches if m.round == 2]
    assert [m.players for m in second] == [(1, None), (2, 3)]
    assert [m.status for m in second] == ["waiting", "ready"]


def test_the_third_place_match_takes_the_semifinal_losers():
    played = [[Board(1, 4, 1), Board(2, 3, 3)]]
    bracket = knockout_bracket(seeded=[1, 2, 3, 4], rounds=played, third_place=True)
    third = bracket.matches[-1]
    assert third.id == "3P" and third.players == (4, 2) and third.status == "ready"
    semis = [m for m in bracket.matches if m.round == 1]
    assert [m.loser_to.match for m in semis] == ["3P", "3P"]
    done = knockout_bracket(
        seeded=[1, 2, 3, 4], rounds=[*played, [Board(1, 3, 3)]], third_place=True,
        third_place_board=Board(4, 2, 2),
    )  # fmt: skip
    assert done.champion == 3 and done.matches[-1].winner == 2
    assert done.places == ((3,), (1,), (2,), (4,))  # the third-place match splits third


def test_a_finished_knockout_s_places_go_by_the_round_a_player_went_out_in():
    # 1 beat 8, 4 beat 5, 2 beat 7, 3 and 6: 3 won, then withdrew (6 has nothing more).
    rounds = [
        [Board(1, 8, 1, 1), Board(4, 5, 4, 2), Board(2, 7, 2, 3), Board(3, 6, 3, 4)],
        [Board(1, 4, 4, 1), Board(2, None, 2, 2)],  # 3 withdrew: 2 goes on by a bye
        [Board(4, 2, 2, 1)],
    ]
    assert knockout_places(rounds) == ((2,), (4,), (1, 3), (5, 6, 7, 8))
    bracket = knockout_bracket(seeded=[1, 2, 3, 4, 5, 6, 7, 8], rounds=rounds)
    assert bracket.champion == 2 and bracket.places == knockout_places(rounds)
    assert knockout_places(rounds[:2]) == ()  # not over


def test_an_empty_slot_leaves_its_match_empty_and_gives_the_next_one_a_bye():
    # 4-5 both withdrew before round 1 was re-paired: slot 2 has no table.
    rounds = [[Board(1, 8, 1, 1), Board(2, 7, None, 3), Board(3, 6, None, 4)]]
    by_id = {m.id: m for m in knockout_bracket(seeded=list(range(1, 9)), rounds=rounds).matches}
    assert (by_id["K1-2"].status, by_id["K1-2"].players) == ("empty", (None, None))
    assert (by_id["K2-1"].status, by_id["K2-1"].winner) == ("bye", 1)
    assert by_id["K2-2"].status == "waiting"


def test_a_field_of_one_is_no_bracket():
    with pytest.raises(ValueError, match="two players"):
        knockout_bracket(seeded=[1])
