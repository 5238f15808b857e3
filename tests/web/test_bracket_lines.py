"""The lines of a drawn bracket (web/brackets.py, web/_bracket.html, bracket.css): from each
match to the match its winner goes to, in the winners' and the losers' brackets, into the
grand final and its reset, a knockout's and a top cut's. Asserted on the HTML's structure,
in grid rows and columns (the browser tests take the pictures): the line leaves the match
at its middle, crosses the columns between on a `run`, goes along the gap before the
target's column from one middle to the other with nothing sticking out, and enters the
target at its middle. A loser's way is a label ("loser to L2-1"), not a line. No database."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from tournaments.pairing import double_elimination
from tournaments.pairing.knockout_bracket import Board, knockout_bracket
from web.brackets import bracket_layout


@dataclass
class Box:
    classes: set[str]
    column: tuple[int, int]  # first column, one past the last
    rows: tuple[int, int]  # first row, one past the last
    attrs: dict[str, str] = field(default_factory=dict)

    @property
    def middle(self) -> float:
        return (self.rows[0] + self.rows[1]) / 2


def _place(style: str) -> tuple[tuple[int, int], tuple[int, int]]:
    column = re.search(r"grid-column:(\d+)(?: / (\d+))?", style)
    row = re.search(r"grid-row:(\d+) / span (\d+)", style)
    assert column and row, style
    first = int(column.group(1))
    last = int(column.group(2)) if column.group(2) else first + 1
    return (first, last), (int(row.group(1)), int(row.group(1)) + int(row.group(2)))


class _Boxes(HTMLParser):
    """The match cells (by match id) and the line pieces of a rendered bracket."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[str, Box] = {}
        self.pieces: list[Box] = []
        self.drops: dict[str, str] = {}
        self._cell: Box | None = None
        self._drop: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = set(a.get("class", "").split())
        if "bracket-cell" in classes or classes & {"bracket-run", "bracket-rise"}:
            column, rows = _place(a["style"])
            box = Box(classes, column, rows, a)
            if "bracket-cell" in classes:
                self._cell = box
            else:
                self.pieces.append(box)
        elif "data-match" in a and self._cell is not None:
            self.cells[a["data-match"]] = self._cell
            self._cell.attrs["id"] = a["data-match"]
        elif "bracket-drop" in classes and self._cell is not None:
            self._drop = self._cell.attrs["id"]

    def handle_data(self, data: str) -> None:
        if self._drop is not None:
            self.drops[self._drop] = data
            self._drop = None


def rendered(data: dict[str, Any], *, language: str = "en") -> str:
    names = {p: f"Player {p}" for m in data["matches"] for p in m["players"] if p}
    with translation.override(language):
        return render_to_string("web/_bracket.html", {"bracket": bracket_layout(data, names)})


def parsed(data: dict[str, Any], *, language: str = "en") -> _Boxes:
    html = rendered(data, language=language)
    boxes = _Boxes()
    boxes.feed(html)
    return boxes


def _joins(box: Box) -> str:
    found = [c[len("joins-") :] for c in box.classes if c.startswith("joins-")]
    assert len(found) == 1, (box.attrs, box.classes)
    return found[0]


def assert_every_winner_has_its_line(data: dict[str, Any], boxes: _Boxes) -> int:
    """Each match's line to its winner's match, followed piece by piece; answers how many."""
    assert set(boxes.cells) == {m["id"] for m in data["matches"]}
    feeders: dict[str, list[str]] = {}
    for m in data["matches"]:
        if m.get("winner_to"):
            feeders.setdefault(m["winner_to"]["match"], []).append(m["id"])
    lines = 0
    for target_id, ids in feeders.items():
        target = boxes.cells[target_id]
        assert "fed" in target.classes or all(m in _empty(data) for m in ids), target_id
        gap = target.column[0]  # the line's vertical runs in the gap before this column
        ends = []
        for source_id in ids:
            source = boxes.cells[source_id]
            assert source.attrs.get("data-to") == target_id, source_id
            assert source.column[1] <= gap, (source_id, "goes backwards")
            end = source
            if source.column[1] < gap:  # columns between: a run across them, its rows
                assert _joins(source) == "straight"
                runs = [
                    p for p in boxes.pieces if p.attrs["data-line"] == f"{source_id} {target_id}"
                ]
                assert len(runs) == 1, (source_id, target_id)
                end = runs[0]
                assert "bracket-run" in end.classes
                assert end.column == (source.column[1], gap) and end.rows == source.rows
            ends.append(end)
            lines += 1
        kinds = [_joins(e) for e in ends]
        if kinds == ["straight"]:  # one match before, on the same rows: a straight line
            assert ends[0].rows == target.rows and ends[0].column[1] == gap
            continue
        assert "straight" not in kinds, (target_id, kinds)
        # The vertical, in row units: what each piece covers of the gap before `gap`.
        covered: list[tuple[float, float]] = []
        for end, kind in zip(ends, kinds, strict=True):
            assert end.column[1] == gap
            if kind == "down":
                covered.append((end.middle, end.rows[1]))
            elif kind == "up":
                covered.append((end.rows[0], end.middle))
        for p in boxes.pieces:
            if "bracket-rise" in p.classes and p.attrs["data-line"].split()[-1] == target_id:
                assert p.column[0] == gap
                lo, hi = p.rows
                if "lower" in p.classes:
                    lo = p.middle
                elif "upper" in p.classes:
                    hi = p.middle
                covered.append((lo, hi))
        middles = [e.middle for e in ends] + [target.middle]
        covered.sort()
        reach = covered[0][0]
        assert reach == min(middles), (target_id, covered, middles)  # nothing sticks out
        for lo, hi in covered:
            assert lo <= reach, (target_id, "a break in the line", covered)
            reach = max(reach, hi)
        assert reach == max(middles), (target_id, covered, middles)
        # Every end meets the vertical at its middle: the top one goes down, the lowest up.
        for end, kind in zip(ends, kinds, strict=True):
            if end.middle == min(middles):
                assert kind == "down", (target_id, kind)
            elif end.middle == max(middles):
                assert kind == "up", (target_id, kind)
            else:
                assert kind == "half", (target_id, kind)
    return lines


def _empty(data: dict[str, Any]) -> set[str]:
    return {m["id"] for m in data["matches"] if m["status"] == "empty"}


def double(size: int, waves: int, *, seed: int = 1, reset: bool = True) -> dict[str, Any]:
    """A double elimination of `size` after `waves` waves of random winners."""
    rng = random.Random(seed)
    seeded = list(range(1, size + 1))
    results: dict[str, int] = {}
    bracket = double_elimination(seeded=seeded, results=results, reset=reset)
    for _ in range(waves):
        if not bracket.next_wave:
            break
        for m in bracket.next_wave:
            results[m.id] = rng.choice([p for p in m.players if p is not None])
        bracket = double_elimination(seeded=seeded, results=results, reset=reset)
    return {
        "format": "double_elimination",
        "matches": [m.as_data() for m in bracket.matches],
        "champion": bracket.champion,
    }


def knockout(size: int, *, third_place: bool = False) -> dict[str, Any]:
    bracket = knockout_bracket(seeded=list(range(1, size + 1)), third_place=third_place)
    return {"format": "knockout", "matches": [m.as_data() for m in bracket.matches]}


def test_an_eight_player_double_elimination_joins_every_winner_to_its_next_match():
    data = double(8, 3)
    boxes = parsed(data)
    assert assert_every_winner_has_its_line(data, boxes) == 14  # all 15 matches but the last
    cells = boxes.cells
    # One grid: the winners' bracket above the losers', the grand final after both.
    assert cells["W1-1"].column == cells["L1-1"].column == (1, 2)
    assert cells["W1-4"].rows[1] < cells["L1-1"].rows[0]
    assert cells["GF1"].column[0] == cells["L4-1"].column[1] == cells["W3-1"].column[1] + 1
    # The winners' final crosses the column of the losers' final on a run; the two lines
    # meet in the gap before the grand final, which sits between them.
    assert _joins(cells["W3-1"]) == "straight" and _joins(cells["L4-1"]) == "up"
    assert cells["W3-1"].middle < cells["GF1"].middle < cells["L4-1"].middle
    rise = [p for p in boxes.pieces if "bracket-rise" in p.classes]
    assert [p.attrs["data-line"] for p in rise] == ["W3-1 L4-1 GF1"]
    # The reset: straight on, dashed while it may not be played.
    assert _joins(cells["GF1"]) == "straight" and cells["GF2"].rows == cells["GF1"].rows
    assert {"maybe-out"} <= cells["GF1"].classes and {"maybe-in"} <= cells["GF2"].classes
    # Losers go by label: every winners' match says where, the grand final does not.
    assert boxes.drops["W1-1"] == boxes.drops["W1-2"] == "loser to L1-1"
    assert boxes.drops["W3-1"] == "loser to L4-1"
    assert "GF1" not in boxes.drops and not any(k.startswith("L") for k in boxes.drops)


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6, 7, 9, 12, 16, 24, 33, 64])
def test_every_double_elimination_size_has_every_line(size):
    for waves in (0, 3, 40):  # new, under way, finished
        data = double(size, waves, seed=size)
        with_a_way_on = [m for m in data["matches"] if m.get("winner_to")]
        assert assert_every_winner_has_its_line(data, parsed(data)) == len(with_a_way_on)


def test_without_a_reset_the_grand_final_is_the_last_match():
    data = double(8, 0, reset=False)
    boxes = parsed(data)
    assert "GF2" not in boxes.cells and "joins-straight" not in boxes.cells["GF1"].classes
    assert assert_every_winner_has_its_line(data, boxes) == 13


@pytest.mark.parametrize("size", [2, 3, 5, 8, 13, 16])
def test_a_knockout_and_its_third_place_match(size):
    data = knockout(size, third_place=size >= 4)
    boxes = parsed(data)
    assert assert_every_winner_has_its_line(data, boxes) == len(
        [m for m in data["matches"] if m.get("winner_to")]
    )
    if size >= 4:
        final = max((m for m in data["matches"] if m["bracket"] == "K"), key=lambda m: m["round"])
        third = boxes.cells["3P"]
        assert third.column == boxes.cells[final["id"]].column  # under the final
        assert third.rows[0] > max(c.rows[1] for c in boxes.cells.values() if c is not third)
        assert "fed" not in third.classes  # its players come by label, not by line
        semis = [m["id"] for m in data["matches"] if (m.get("loser_to") or {}).get("match") == "3P"]
        assert {boxes.drops[s] for s in semis} == {"loser to 3P"}


def test_a_top_cut_draws_like_a_knockout():
    rounds = [[Board(1, 4, 4), Board(2, 3, 2)]]
    bracket = knockout_bracket(seeded=[1, 2, 3, 4], rounds=rounds)
    data = {"format": "top_cut", "matches": [m.as_data() for m in bracket.matches]}
    boxes = parsed(data)
    assert assert_every_winner_has_its_line(data, boxes) == 2
    assert _joins(boxes.cells["K1-1"]) == "down" and _joins(boxes.cells["K1-2"]) == "up"


def test_the_labels_and_lines_in_persian():
    data = double(8, 3)
    boxes = parsed(data, language="fa")
    assert assert_every_winner_has_its_line(data, boxes) == 14
    assert boxes.drops["W1-1"] == "بازنده به L1-1"


def test_an_empty_match_draws_no_line_and_names_nobody():
    data = double(5, 0)  # L1-2 has nobody: both its players had byes
    empty = _empty(data)
    assert empty
    boxes = parsed(data)
    assert_every_winner_has_its_line(data, boxes)
    for match_id in empty:
        cell = boxes.cells[match_id]
        assert "s-empty" in cell.classes  # bracket.css hides it and its line
    html = rendered(data)
    for match_id in empty:
        assert f"Winner of {match_id}" not in html
