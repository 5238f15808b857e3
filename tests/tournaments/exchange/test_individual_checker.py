"""The stand-alone checker (tools/check_exchange.py) on individual tournaments (HGX 2):
random Swiss and round robin tournaments made by the domain (a property test), and files
tampered with."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.exchange.helpers import TOOL, checker
from tests.tournaments.exchange.individual_helpers import individual_text, random_tournament
from tournaments.exchange.individual import parse_individual, write_individual


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 13),
    rounds=st.integers(1, 9),
    fmt=st.sampled_from(["swiss", "round_robin"]),
    tiebreaks=st.integers(0, 2),
    bye_points=st.sampled_from(["win", "nothing"]),
    bye_buchholz=st.sampled_from(["nothing", "virtual_opponent"]),
)
def test_every_tournament_the_domain_makes_passes_the_checker(  # noqa: PLR0913
    seed, players, rounds, fmt, tiebreaks, bye_points, bye_buchholz
) -> None:
    state = random_tournament(seed, players=players, fmt=fmt, rounds=rounds,
                              tiebreaks=tiebreaks, bye_points=bye_points,
                              bye_buchholz=bye_buchholz)  # fmt: skip
    text = individual_text(state)
    assert checker.check(text) == []
    assert write_individual(parse_individual(text)) == text  # the file reads back as written


def _lines(seed: int = 4, fmt: str = "swiss", players: int = 8, rounds: int = 5) -> list[str]:
    return individual_text(
        random_tournament(seed, players=players, fmt=fmt, rounds=rounds)
    ).splitlines()


def _join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def test_a_changed_result_is_caught() -> None:
    lines = _lines()
    i = next(n for n, line in enumerate(lines) if line.startswith("001") and " d 1 " in line)
    lines[i] = lines[i].replace(" d 1 ", " d 0 ", 1)
    assert any("disagree" in p for p in checker.check(_join(lines)))


def test_a_changed_standing_is_caught() -> None:
    lines = _lines()
    i = next(n for n, line in enumerate(lines) if line.startswith("002"))
    f = lines[i].split()
    f[4] = str(int(f[4]) + 1)  # match wins
    lines[i] = " ".join(f)
    assert any("the file says match wins" in p for p in checker.check(_join(lines)))


def test_a_swapped_dealer_is_caught_in_a_round_robin() -> None:
    x = parse_individual(_join(_lines(fmt="round_robin", players=4)))
    # Player 1 second at every table: dealing first in none of their three matches.
    x.games = [
        type(g)(g.round, g.table, g.player2, g.player1, g.winner, g.games2, g.games1,
                g.points2, g.points1, g.result)
        if g.player1 == 1 and g.player2 else g
        for g in x.games
    ]  # fmt: skip
    assert any("deals first in 0 of 3" in p for p in checker.check(write_individual(x)))


def test_an_avoidable_rematch_and_a_second_bye_are_caught() -> None:
    text = _join(_lines(seed=2, players=6, rounds=3))
    x = parse_individual(text)
    # Round 2 paired as round 1 (same tables): three rematches where none was needed.
    first = [g for g in x.games if g.round == 1]
    x.games = [g for g in x.games if g.round != 2] + [
        type(g)(2, g.table, g.player1, g.player2, g.winner, result=g.result) for g in first
    ]
    assert any("rematches where 0 would do" in p for p in checker.check(write_individual(x)))
    odd = parse_individual(_join(_lines(seed=3, players=5, rounds=3)))
    byes = [g for g in odd.games if g.player2 is None]
    lucky = byes[0].player1
    moved = []
    for g in odd.games:  # give round 2's bye to round 1's bye player instead
        if g.round == 2 and g.player2 is None:
            moved.append(type(g)(2, g.table, lucky, None, lucky, result="bye"))
        elif g.round == 2 and lucky in (g.player1, g.player2):
            other = byes[1].player1
            p1, p2 = (other, g.player2) if g.player1 == lucky else (g.player1, other)
            moved.append(type(g)(2, g.table, p1, p2, None))
        else:
            moved.append(g)
    odd.games = moved
    assert any("second bye" in p for p in checker.check(write_individual(odd)))


def test_the_tool_runs_alone_on_an_individual_file(tmp_path) -> None:
    good = tmp_path / "good.hgx"
    good.write_text(_join(_lines()))
    run = subprocess.run([sys.executable, "-I", str(TOOL), str(good)], capture_output=True)
    assert run.returncode == 0, run.stdout
    bad = tmp_path / "bad.hgx"
    bad.write_text(_join([*_lines()[:6], "002 x"]))
    run = subprocess.run([sys.executable, "-I", str(TOOL), str(bad)], capture_output=True)
    assert run.returncode == 2
