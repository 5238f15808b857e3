"""The brackets as the pages draw them (the desk, the public page and wall screen, the
print): the bracket data of `tournaments.selectors.tournament_bracket` (the API's answer)
laid out as one CSS grid, a column per round. A double elimination's winners' bracket sits
above its losers' bracket, the grand final (and its reset) in the columns after both; a
knockout's third-place match under its final. Each match's rows span those of the matches
that feed it, and the lines to where its winner goes are drawn by `web/static/web/bracket.css`
from the classes and the line pieces of `web.bracket_lines`. Where a loser goes is a
label ("loser to L2-1"), not a line. No script: the server draws it, and right to left
flips the grid and its lines by itself (logical properties only)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy

from tournaments.selectors import tournament_bracket, tournament_registration_list
from web.bracket_cells import DrawnMatch, Side
from web.bracket_lines import Piece, bracket_connect

SECTION_TITLES = {
    "W": gettext_lazy("Winners' bracket"),
    "L": gettext_lazy("Losers' bracket"),
    "GF": gettext_lazy("Grand final"),
    "K": gettext_lazy("Knockout"),
    "3P": gettext_lazy("Third place"),
}
STATUS_WORDS = {
    "waiting": gettext_lazy("waiting"),
    "ready": gettext_lazy("to play"),
    "played": gettext_lazy("played"),
    "walkover": gettext_lazy("walkover"),
    "bye": gettext_lazy("bye"),
    "empty": gettext_lazy("empty"),
    "not_needed": gettext_lazy("not needed"),
}
# A result the bracket could not take (its code in the data's `problem`): drawn without it.
PROBLEM_WORDS = {
    "not_a_player": gettext_lazy("result left out: its winner did not play this match"),
    "not_ready": gettext_lazy("result left out: it came before both players were known"),
    "unknown_match": gettext_lazy("result left out: the bracket has no such match"),
}
FINAL = pgettext_lazy("bracket round", "Final")
SEMIFINALS = pgettext_lazy("bracket round", "Semifinals")
QUARTERFINALS = pgettext_lazy("bracket round", "Quarterfinals")
# A match with nobody to lose (or not played at all) sends no loser anywhere.
NO_LOSER = ("bye", "empty", "not_needed")
MATCH_ROW = "var(--match-row)"  # bracket.css: a match row's height, screen and print


@dataclass
class DrawnRound:
    title: str
    column: int
    matches: list[DrawnMatch] = field(default_factory=list)
    style: str = ""  # "" where the round has no title in a row of titles


@dataclass
class DrawnSection:
    key: str
    title: str
    rows: int
    rounds: list[DrawnRound] = field(default_factory=list)
    heading_style: str = ""  # where its heading goes; "" for none
    pieces: list[Piece] = field(default_factory=list)


def bracket_drawn(*, tournament: Any) -> dict[str, Any] | None:
    """The bracket of `tournament` laid out for a page, or None where it has none (yet)."""
    data = tournament_bracket(tournament=tournament)
    if not data["matches"]:
        return None
    entries = tournament_registration_list(tournament=tournament)
    return bracket_layout(data, {r.player_id: r.player.name for r in entries})


def bracket_layout(data: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The bracket data (`tournament_bracket`'s answer) laid out, players by `names`."""
    matches = data["matches"]
    sources = _sources(matches)
    loser_to = pgettext("bracket", "loser to %(match)s")
    grouped: dict[str, list[dict[str, Any]]] = {}
    for m in matches:
        grouped.setdefault(m["bracket"], []).append(m)
    keys = [k for k in ("W", "L", "GF", "K", "3P") if k in grouped]
    headed = len([k for k in keys if k != "GF"]) > 1
    grid = _Grid()
    sections: dict[str, DrawnSection] = {}
    # The brackets one under the other, each a block of rows: its heading, its rounds'
    # titles, its matches.
    for key in (k for k in keys if k in ("W", "L", "K")):
        sections[key] = _block(grid, key, grouped[key], names, sources, loser_to, headed)
    columns = max((len(s.rounds) for s in sections.values()), default=0)
    if "3P" in grouped:
        sections["3P"] = _third_place(grid, grouped["3P"], names, sources, max(columns, 1))
    if "GF" in grouped:
        sections["GF"] = _grand_final(grid, grouped["GF"], names, sources, sections, columns)
    drawn = [sections[k] for k in keys]
    for section in drawn:
        if headed and section.key in ("W", "L", "K"):  # over its columns, not the final's
            section.heading_style = f"grid-column:1 / span {max(columns, 1)};" + (
                section.heading_style
            )
    cells = {m.id: m for s in drawn for r in s.rounds for m in r.matches}
    bracket_connect(cells, matches, {k: s.pieces for k, s in sections.items()})
    for m in cells.values():
        m.classes = _classes(m)
    total_columns = max((m.column for m in cells.values()), default=1)
    champion = data.get("champion")
    return {
        "format": data["format"],
        "sections": drawn,
        "style": f"--columns:{total_columns};grid-template-rows:{' '.join(grid.rows)}",
        "champion": names.get(champion, "") if champion is not None else "",
    }


class _Grid:
    """The grid's rows as they are added: each block's heading, titles and match rows."""

    def __init__(self) -> None:
        self.rows: list[str] = []

    def add(self, size: str, count: int = 1) -> int:
        """Adds `count` rows of `size`; answers the first one's number (1-based)."""
        first = len(self.rows) + 1
        self.rows.extend([size] * count)
        return first


def _sources(matches: list[dict[str, Any]]) -> dict[tuple[str, int], str]:
    """(match, side) -> who comes there while unknown: "Winner of K1-2", "Loser of W2-1"."""
    found: dict[tuple[str, int], str] = {}
    texts = (("winner_to", gettext("Winner of %s")), ("loser_to", gettext("Loser of %s")))
    for m in matches:
        if m["status"] == "empty":  # nobody will come out of it
            continue
        for key, text in texts:
            to = m.get(key)
            if to is not None:
                found[(to["match"], to["side"])] = text % m["id"]
    return found


def _round_title(key: str, number: int, last: int) -> str:
    if key == "K":
        from_end = last - number
        if from_end < 3:
            return str((FINAL, SEMIFINALS, QUARTERFINALS)[from_end])
        return gettext("Round %(n)s") % {"n": number}
    if key == "3P":
        return ""  # the section's own title says it
    if key == "GF":
        return gettext("Grand final") if number == 1 else gettext("Bracket reset")
    if key == "W":
        return gettext("Winners' round %(n)s") % {"n": number}
    return gettext("Losers' round %(n)s") % {"n": number}


def _match(
    m: dict[str, Any],
    names: dict[int, str],
    sources: dict[tuple[str, int], str],
    *,
    column: int,
    row: int,
    span: int,
    loser_to: str = "",
) -> DrawnMatch:
    drop = ""
    to, lost_to = m.get("winner_to"), m.get("loser_to")
    sends = loser_to and lost_to is not None and m["status"] not in NO_LOSER
    # (The grand final's loser goes to the reset, as its winner does: the same two again.)
    if sends and (to is None or lost_to["match"] != to["match"]):
        drop = loser_to % {"match": lost_to["match"]}
    return DrawnMatch(
        id=m["id"],
        status=m["status"],
        status_word=str(STATUS_WORDS.get(m["status"], m["status"])),
        sides=[_side(m, s, names, sources) for s in (0, 1)],
        column=column,
        row=row,
        span=span,
        drop=drop,
        style=f"grid-column:{column};grid-row:{row} / span {span}",
        problem=str(PROBLEM_WORDS.get(m.get("problem") or "", m.get("problem") or "")),
    )


def _block(
    grid: _Grid,
    key: str,
    matches: list[dict[str, Any]],
    names: dict[int, str],
    sources: dict[tuple[str, int], str],
    loser_to: str,
    headed: bool,
) -> DrawnSection:
    """A bracket of rounds (winners', losers', a knockout) as a block of the grid's rows."""
    by_round: dict[int, list[dict[str, Any]]] = {}
    for m in matches:
        by_round.setdefault(m["round"], []).append(m)
    numbers = sorted(by_round)
    rows = max(len(ms) for ms in by_round.values())
    section = DrawnSection(key=key, title=str(SECTION_TITLES[key]), rows=rows)
    if headed:
        section.heading_style = f"grid-row:{grid.add('auto')}"
    titles = grid.add("auto")
    first = grid.add(MATCH_ROW, rows)
    for column, number in enumerate(numbers, 1):
        ms = sorted(by_round[number], key=lambda m: m["index"])
        span = max(1, rows // len(ms))
        drawn = DrawnRound(
            title=_round_title(key, number, numbers[-1]),
            column=column,
            style=f"grid-column:{column};grid-row:{titles}",
        )
        for m in ms:
            row = first + (m["index"] - 1) * span
            drawn.matches.append(
                _match(m, names, sources, column=column, row=row, span=span, loser_to=loser_to)
            )
        section.rounds.append(drawn)
    return section


def _third_place(
    grid: _Grid,
    matches: list[dict[str, Any]],
    names: dict[int, str],
    sources: dict[tuple[str, int], str],
    column: int,
) -> DrawnSection:
    """The third-place match under the final, in the final's column, with its heading."""
    section = DrawnSection(key="3P", title=str(SECTION_TITLES["3P"]), rows=1)
    section.heading_style = f"grid-column:{column};grid-row:{grid.add('auto')}"
    row = grid.add(MATCH_ROW)
    drawn = DrawnRound(title="", column=column)
    for m in matches:
        drawn.matches.append(_match(m, names, sources, column=column, row=row, span=1))
    section.rounds.append(drawn)
    return section


def _grand_final(
    grid: _Grid,
    matches: list[dict[str, Any]],
    names: dict[int, str],
    sources: dict[tuple[str, int], str],
    sections: dict[str, DrawnSection],
    columns: int,
) -> DrawnSection:
    """The grand final and its reset in the columns after both brackets, over the rows
    from the winners' final to the losers' final, so that both lines meet at its middle."""
    finals = [s.rounds[-1].matches[-1] for s in sections.values() if s.rounds]
    if finals:
        top = min(m.row for m in finals)
        bottom = max(m.row + m.span for m in finals)
    else:  # no bracket before it (not a shape the selector draws): a row of its own
        top, bottom = grid.add(MATCH_ROW), len(grid.rows) + 1
    section = DrawnSection(key="GF", title=str(SECTION_TITLES["GF"]), rows=bottom - top)
    for m in sorted(matches, key=lambda m: m["round"]):
        column = columns + m["round"]
        drawn = DrawnRound(title="", column=column)
        match = _match(m, names, sources, column=column, row=top, span=bottom - top)
        match.over = _round_title("GF", m["round"], 0)
        drawn.matches.append(match)
        section.rounds.append(drawn)
    return section


def _classes(m: DrawnMatch) -> str:
    classes = ["bracket-cell", f"s-{m.status}"]
    if m.joins:
        classes.append(f"joins-{m.joins}")
    if m.fed:
        classes.append("fed")
    if m.maybe_in:
        classes.append("maybe-in")
    if m.maybe_out:
        classes.append("maybe-out")
    if m.problem:
        classes.append("problem")
    return " ".join(classes)


def _side(
    m: dict[str, Any], side: int, names: dict[int, str], sources: dict[tuple[str, int], str]
) -> Side:
    player = m["players"][side]
    if player is None:
        empty = m["status"] in ("bye", "empty", "not_needed")
        return Side(note="" if empty else sources.get((m["id"], side), ""))
    return Side(
        name=names.get(player, "?"),
        seed=str(m["seeds"][side] or ""),
        won=m["winner"] == player and m["status"] in ("played", "walkover", "bye"),
        lost=m["loser"] == player,
    )
