"""The stand-alone checker (tools/check_exchange.py) against random team events made by
the domain (a property test), and against files tampered with."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.exchange.helpers import TOOL, checker, exchange_text, random_team_event
from tournaments.exchange.hgx import parse, write


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    teams=st.integers(2, 9),
    boards=st.integers(1, 4),
    fmt=st.sampled_from(["team_swiss", "team_round_robin"]),
)
def test_every_event_the_domain_makes_passes_the_checker(seed, teams, boards, fmt) -> None:
    state = random_team_event(seed, teams=teams, boards=boards, fmt=fmt)
    text = exchange_text(state)
    assert checker.check(text) == []
    assert write(parse(text)) == text  # the file reads back as written


def test_a_changed_result_or_dealer_or_rematch_is_caught() -> None:
    text = exchange_text(random_team_event(5, teams=6, boards=2, fmt="team_swiss"))
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("001") and line[64:89].strip())
    block = lines[i][64:89]  # round 1: " OOOO TTT BB D R GG PPPPP", the result at 15
    flipped = (
        block[:15] + {"1": "0", "0": "1", "=": "1", "+": "1", "-": "0"}[block[15]] + block[16:]
    )
    bad = "\n".join([*lines[:i], lines[i][:64] + flipped + lines[i][89:], *lines[i + 1 :]])
    assert any("disagree" in p for p in checker.check(bad + "\n"))
    team = next(n for n, line in enumerate(lines) if line.startswith("013"))
    wrong = lines[team][:42] + f"{int(lines[team][42:46]) + 2:4d}" + lines[team][46:]
    assert any("the file says" in p for p in checker.check(text.replace(lines[team], wrong)))
    rounds = [line for line in lines if line.startswith("015   2")]
    swapped = text.replace(rounds[0], rounds[0][:12] + rounds[1][12:]) if len(rounds) > 1 else text
    assert checker.check(swapped) != []


def test_the_tool_runs_alone_with_an_exit_status(tmp_path) -> None:
    good = tmp_path / "good.hgx"
    good.write_text(exchange_text(random_team_event(1, teams=4, boards=2, fmt="team_swiss")))
    run = subprocess.run([sys.executable, "-I", str(TOOL), str(good)], capture_output=True)
    assert run.returncode == 0, run.stdout
    junk = tmp_path / "junk.hgx"
    junk.write_text("TRF\n")
    run = subprocess.run([sys.executable, "-I", str(TOOL), str(junk)], capture_output=True)
    assert run.returncode == 2


@pytest.mark.parametrize("teams", [3, 5])
def test_a_round_robin_with_byes_passes(teams) -> None:
    state = random_team_event(9, teams=teams, boards=1, fmt="team_round_robin")
    assert checker.check(exchange_text(state)) == []
