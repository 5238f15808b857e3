"""The stand-alone checker (tools/check_exchange.py, tools/hgx_check/) on brackets (HGX 3):
random knockouts, double eliminations and top cuts made by the domain (a property test),
and bracket files tampered with."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.tournaments.exchange.bracket_helpers import BRACKETS, bracket_text, random_bracket
from tests.tournaments.exchange.helpers import TOOL, checker
from tournaments.exchange.individual import parse_individual, write_individual


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 17),
    kind=st.sampled_from(BRACKETS),
    reset=st.booleans(),
    third_place=st.booleans(),
    forbidden=st.integers(0, 2),
    tiebreaks=st.integers(0, 2),
)
def test_every_bracket_the_domain_makes_passes_the_checker(  # noqa: PLR0913
    seed, players, kind, reset, third_place, forbidden, tiebreaks
) -> None:
    assume(kind != "top_cut" or players >= 4)
    # Withdrawals included: a double elimination whose bracket they decided between rounds
    # finishes (it once stuck with "nobody is left to pair").
    state = random_bracket(seed, players=players, kind=kind, reset=reset,
                           third_place=third_place, forbidden=forbidden,
                           tiebreaks=tiebreaks)  # fmt: skip
    assert state.finished
    text = bracket_text(state)
    assert checker.check(text) == []
    assert write_individual(parse_individual(text)) == text  # the file reads back as written


def _text(kind: str = "knockout", seed: int = 3, players: int = 8, **kw: object) -> str:
    return bracket_text(random_bracket(seed, players=players, kind=kind, withdrawals=False, **kw))


@pytest.mark.parametrize("kind", BRACKETS)
def test_a_final_won_by_the_other_player_is_caught(kind) -> None:
    x = parse_individual(_text(kind, third_place=True))
    assert x.bracket is not None
    # The final: the last round's match that is not for third place (K…, GF1 or GF2).
    key = max(k for k, s in x.bracket.slots.items() if s != "3P")
    x.games = [
        replace(g, winner=g.player2 if g.winner == g.player1 else g.player1)
        if (g.round, g.table) == key else g
        for g in x.games
    ]  # fmt: skip
    problems = checker.check(write_individual(x))
    assert any("the file says rank" in p or "the file says place" in p for p in problems), problems


def test_a_player_after_elimination_is_caught() -> None:
    x = parse_individual(_text("knockout"))
    assert x.bracket is not None
    first = [g for g in x.games if g.round == 1]
    loser = next(g.player2 if g.winner == g.player1 else g.player1 for g in first if g.player2)
    semi = next(g for g in x.games if g.round == 2 and loser not in (g.player1, g.player2))
    # The round-1 loser takes a semifinal seat (their place in round 1 left as it was).
    x.games = [replace(g, player1=loser, winner=loser if g.winner == g.player1 else g.winner)
               if g is semi else g for g in x.games]  # fmt: skip
    problems = checker.check(write_individual(x))
    assert any("are not the winners feeding it" in p for p in problems), problems


def test_a_bye_the_seeding_does_not_give_is_caught() -> None:
    x = parse_individual(_text("knockout", players=6))
    assert x.bracket is not None
    x.bracket.seeds.reverse()  # seed 1 last: the byes went to the wrong players
    problems = checker.check(write_individual(x))
    assert any("not the seeding's" in p for p in problems), problems


def test_a_double_elimination_match_not_fed_by_its_sources_is_caught() -> None:
    x = parse_individual(_text("double_elimination", players=8))
    assert x.bracket is not None
    key = next(k for k, s in x.bracket.slots.items() if s == "L1-1")
    other = next(k for k, s in x.bracket.slots.items() if s == "W2-1")
    one = next(g for g in x.games if (g.round, g.table) == key)
    two = next(g for g in x.games if (g.round, g.table) == other)
    # L1-1 and W2-1 trade their first players (both played in round 2: the tables still agree).
    x.games = [
        replace(g, player1=two.player1, winner=two.player1 if g.winner == g.player1 else g.winner)
        if g is one else
        replace(g, player1=one.player1, winner=one.player1 if g.winner == g.player1 else g.winner)
        if g is two else g
        for g in x.games
    ]  # fmt: skip
    problems = checker.check(write_individual(x))
    assert any("whom it is fed" in p for p in problems), problems


def test_the_tool_and_its_package_run_alone_elsewhere(tmp_path) -> None:
    """Copied with tools/hgx_check beside it, run isolated (-I) from another directory."""
    shutil.copy(TOOL, tmp_path / "check_exchange.py")
    shutil.copytree(TOOL.parent / "hgx_check", tmp_path / "hgx_check")
    good = tmp_path / "good.hgx"
    good.write_text(_text("double_elimination", players=7))
    tool = str(tmp_path / "check_exchange.py")
    run = subprocess.run([sys.executable, "-I", tool, str(good)], capture_output=True, cwd="/")
    assert run.returncode == 0, run.stdout
    lines = good.read_text().splitlines()
    bad = tmp_path / "bad.hgx"
    bad.write_text("\n".join(line for line in lines if not line.startswith("005   1   1")) + "\n")
    run = subprocess.run([sys.executable, "-I", tool, str(bad)], capture_output=True, cwd="/")
    assert run.returncode == 1, run.stdout


def test_a_first_round_moved_without_a_pair_kept_apart_is_caught() -> None:
    """Pairs kept apart (006) moved this double elimination's first round (008 says how);
    without them the seeding's first round is the only one."""
    text = _text("double_elimination", seed=1, players=8, forbidden=2)
    assert "\n006 " in text
    assert checker.check(text) == []
    alone = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("006"))
    problems = checker.check(alone)
    assert any("not the seeding's" in p for p in problems), problems
