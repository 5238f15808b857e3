"""A drawn bracket's match cells: what the layout (web.brackets) places on the grid and the
lines (web.bracket_lines) join, apart from both so that neither imports the other."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Side:
    name: str = ""  # "" while nobody is known
    seed: str = ""  # as text: the template writes it as it is (no number formatting)
    won: bool = False
    lost: bool = False
    note: str = ""  # where the player comes from, while unknown ("Winner of W1-2")


@dataclass
class DrawnMatch:
    id: str
    status: str
    status_word: str
    sides: list[Side]
    column: int
    row: int  # the grid row it starts on (1-based, in the whole grid)
    span: int  # rows it spans
    joins: str = ""  # its winner's line: "straight", "down", "up" or "" (none drawn)
    fed: bool = False  # a line comes in (from the match or matches before)
    maybe_in: bool = False  # it may not be played (the reset): the lines to it dashed
    maybe_out: bool = False  # its line goes to a match that may not be played
    to: str = ""  # the match its winner's line goes to
    drop: str = ""  # where its loser goes, as a label: "loser to L2-1"
    over: str = ""  # a title above the box (the grand final's, which has no column title)
    style: str = ""  # its grid place, e.g. "grid-column:2;grid-row:3 / span 2"
    classes: str = ""  # the cell's classes, written once (the template adds nothing)
    problem: str = ""  # why its result was left out of the bracket (tournaments.domain.brackets)

    @property
    def center(self) -> float:
        return self.row + self.span / 2
