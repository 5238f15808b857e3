"""The brackets as the pages draw them (the desk, the public page and wall screen, the
print): the bracket data of `tournaments.selectors.tournament_bracket` (the API's answer)
laid out as a CSS grid per bracket, a column per round, each match's rows spanning the
matches that feed it, so the connector lines of `web/static/web/bracket.css` join them.
No script: the server draws it, and right-to-left flips the grid by itself."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from tournaments.selectors import tournament_bracket, tournament_registrations

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
FINAL = pgettext_lazy("bracket round", "Final")
SEMIFINALS = pgettext_lazy("bracket round", "Semifinals")
QUARTERFINALS = pgettext_lazy("bracket round", "Quarterfinals")


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
    row: int  # the grid row it starts on (1-based)
    span: int  # rows it spans
    joins: str  # how its winner's line goes on: "down", "up", "straight" or "" (last round)
    fed: bool  # a line comes in from the round before
    style: str = ""  # its grid place, e.g. "grid-column:2;grid-row:3 / span 2"


@dataclass
class DrawnRound:
    title: str
    column: int
    matches: list[DrawnMatch] = field(default_factory=list)
    style: str = ""


@dataclass
class DrawnSection:
    key: str
    title: str
    rows: int
    rounds: list[DrawnRound] = field(default_factory=list)
    style: str = ""


def bracket_drawn(*, tournament: Any) -> dict[str, Any] | None:
    """The bracket of `tournament` laid out for a page, or None where it has none (yet)."""
    data = tournament_bracket(tournament=tournament)
    if not data["matches"]:
        return None
    entries = tournament_registrations(tournament=tournament)
    return bracket_layout(data, {r.player_id: r.player.name for r in entries})


def bracket_layout(data: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """The bracket data (`tournament_bracket`'s answer) laid out, players by `names`."""
    matches = data["matches"]
    sources = _sources(matches)
    sections = []
    for key in ("W", "L", "GF", "K", "3P"):
        own = [m for m in matches if m["bracket"] == key]
        if own:
            sections.append(_section(key, own, names, sources))
    champion = data.get("champion")
    return {
        "format": data["format"],
        "sections": sections,
        "champion": names.get(champion, "") if champion is not None else "",
    }


def _sources(matches: list[dict[str, Any]]) -> dict[tuple[str, int], str]:
    """(match, side) -> who comes there while unknown: "Winner of K1-2", "Loser of W2-1"."""
    found: dict[tuple[str, int], str] = {}
    texts = (("winner_to", gettext("Winner of %s")), ("loser_to", gettext("Loser of %s")))
    for m in matches:
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


def _section(
    key: str,
    matches: list[dict[str, Any]],
    names: dict[int, str],
    sources: dict[tuple[str, int], str],
) -> DrawnSection:
    by_round: dict[int, list[dict[str, Any]]] = {}
    for m in matches:
        by_round.setdefault(m["round"], []).append(m)
    numbers = sorted(by_round)
    rows = max(len(ms) for ms in by_round.values())
    section = DrawnSection(key=key, title=str(SECTION_TITLES[key]), rows=rows)
    for column, number in enumerate(numbers, 1):
        ms = sorted(by_round[number], key=lambda m: m["index"])
        span = max(1, rows // len(ms))
        # Two matches of this round feeding one match of the next: their lines meet.
        targets = Counter(m["winner_to"]["match"] for m in ms if m.get("winner_to"))
        drawn = DrawnRound(
            title=_round_title(key, number, numbers[-1]),
            column=column,
            style=f"grid-column:{column}",
        )
        for m in ms:
            row = (m["index"] - 1) * span + 1
            to = m.get("winner_to")
            in_section = to is not None and to["match"].startswith(key) and column < len(numbers)
            if not in_section:
                joins = ""
            elif targets[to["match"]] > 1:
                joins = "down" if to["side"] == 0 else "up"
            else:
                joins = "straight"
            drawn.matches.append(
                DrawnMatch(
                    id=m["id"],
                    status=m["status"],
                    status_word=str(STATUS_WORDS.get(m["status"], m["status"])),
                    sides=[_side(m, s, names, sources) for s in (0, 1)],
                    row=row,
                    span=span,
                    joins=joins,
                    fed=column > 1,
                    # Row 1 holds the rounds' titles.
                    style=f"grid-column:{column};grid-row:{row + 1} / span {span}",
                )
            )
        section.rounds.append(drawn)
    section.style = f"--rows:{rows};--columns:{len(numbers)}"
    return section


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
