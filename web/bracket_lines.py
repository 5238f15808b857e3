"""The lines of a drawn bracket (`web.brackets` lays the matches out on a grid; this joins
them): from each match to the match its winner goes to, as the classes of the matches' cells
and the line pieces that belong to no match, which `web/static/web/bracket.css` draws."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from web.bracket_cells import DrawnMatch

MAYBE = ("waiting", "not_needed")  # the reset, while it may not be played: a dashed line


@dataclass
class Piece:
    """A line piece that belongs to no match: `run`, a horizontal line across columns with
    no match of that bracket in them (the winners' final to the grand final), or `rise`, a
    vertical line in the gap before a column (`rise` whole rows, `rise lower` from the
    middle of its rows down, `rise upper` from the top down to the middle)."""

    classes: str
    style: str
    line: str  # "W3-1 GF1": the line it is part of, from a match to its winner's match


def bracket_connect(
    cells: dict[str, DrawnMatch],
    matches: list[dict[str, Any]],
    pieces: dict[str, list[Piece]],
) -> None:
    """The line from each match to the match its winner goes to: out of the match at its
    middle, across the columns between (a `run`), then in the gap before the target's
    column a vertical line from the highest to the lowest middle of the target and its
    matches before (the feeders' own `down` / `up` ends, `rise` pieces over the rows
    between), and into the target at its middle (`fed`). The layout puts a target over the
    rows of the feeders it has two of, and on the rows of the one it has one of, so the
    vertical always ends at middles. A match with nobody in it (`empty`) draws no line."""
    feeders: dict[str, list[DrawnMatch]] = {}
    for m in matches:
        to = m.get("winner_to")
        if to is not None and to["match"] in cells and m["id"] in cells:
            feeders.setdefault(to["match"], []).append(cells[m["id"]])
    for target_id, sources in feeders.items():
        target = cells[target_id]
        # A match with nobody in it is not drawn, nor are its lines (bracket.css), but they
        # keep their place: the line of the match beside it still ends at the middle.
        target.fed = any(f.status != "empty" for f in sources)
        owner = _pieces_of(pieces, target_id)
        ends: list[tuple[DrawnMatch, Piece | None]] = []
        for f in sorted(sources, key=lambda f: f.center):
            f.to = target_id
            # The reset is played only if the losers' bracket's winner wins the grand final.
            f.maybe_out = target.maybe_in = target_id == "GF2" and target.status in MAYBE
            run = None
            if f.column < target.column - 1:  # across columns with no match of its own
                f.joins = "straight"
                run = Piece(
                    classes="bracket-run",
                    style=f"grid-column:{f.column + 1} / {target.column};"
                    f"grid-row:{f.row} / span {f.span}",
                    line=f"{f.id} {target_id}",
                )
                owner.append(run)
            ends.append((f, run))
        if len(ends) == 1 and (ends[0][0].row, ends[0][0].span) == (target.row, target.span):
            _end(ends[0], "straight")
            continue
        # The vertical: from the highest middle to the lowest among the feeders and target.
        placed: list[tuple[float, int, int, tuple[DrawnMatch, Piece | None] | None]] = [
            (f.center, f.row, f.row + f.span, (f, run)) for f, run in ends
        ]
        placed.append((target.center, target.row, target.row + target.span, None))
        placed.sort(key=lambda p: p[0])
        (_, _, top_end, top), (_, bottom_start, _, bottom) = placed[0], placed[-1]
        line = " ".join([f.id for f, _ in ends] + [target_id])
        for _, _, _, end in placed[1:-1]:
            if end is not None:
                _end(end, "half")
        for end, half in ((top, "down"), (bottom, "up")):
            if end is not None:
                _end(end, half)
            else:  # the target itself is the highest or the lowest: a half rise on it
                owner.append(
                    Piece(
                        classes=f"bracket-rise {'lower' if half == 'down' else 'upper'}",
                        style=f"grid-column:{target.column};"
                        f"grid-row:{target.row} / span {target.span}",
                        line=line,
                    )
                )
        if bottom_start > top_end:
            owner.append(
                Piece(
                    classes="bracket-rise",
                    style=f"grid-column:{target.column};"
                    f"grid-row:{top_end} / span {bottom_start - top_end}",
                    line=line,
                )
            )


def _end(end: tuple[DrawnMatch, Piece | None], joins: str) -> None:
    """How the line of a feeder ends in the gap before its target: on the run across the
    columns if it has one, else on the match itself."""
    match, run = end
    if run is None:
        match.joins = joins
    else:
        run.classes = f"{run.classes} joins-{joins}"


def _pieces_of(pieces: dict[str, list[Piece]], target_id: str) -> list[Piece]:
    """The pieces of the section the target is in (the template draws them with it)."""
    key = "GF" if target_id.startswith("GF") else "3P" if target_id == "3P" else target_id[:1]
    return pieces.get(key) or next(iter(pieces.values()))
