"""The forms a table's waiting entry fills: the desk's amend form starts from the values
the player entered. Both the table page (web.desk.rounds) and the amend view
(web.desk.amend) build it, so it lives apart from both."""

from __future__ import annotations

from typing import Any

from web.desk.forms import HandForm

AMEND_PREFIX = "amend"


def amend_form(match: Any, data: Any = None, entry: Any = None) -> HandForm:
    """The amend form, filled with the entry's values to start from."""
    names = (match.player1.name, match.player2.name)
    initial = None
    if entry is not None:
        if entry.drawn:
            initial = {"result": "drawn"}
        else:
            result = "p1" if entry.knocker_id == match.player1_id else "p2"
            initial = {
                "result": result,
                "gin": entry.gin,
                "knocker_deadwood": entry.knocker_deadwood,
                "defender_deadwood": entry.defender_deadwood,
            }
    return HandForm(data, names=names, prefix=AMEND_PREFIX, initial=initial)
