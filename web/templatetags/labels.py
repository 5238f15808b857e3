"""A tournament match's label in the reader's language. The label is stored as the pairing
service writes it ("Swiss R1 T1": tournaments.services.rounds), in no language; shown, it
reads "Swiss, round 1, table 1" translated. Any other label (one an organiser typed) is
shown as it is."""

from __future__ import annotations

import re

from django import template
from django.utils.translation import gettext, gettext_lazy

register = template.Library()

_STORED = re.compile(r"^(RR|Swiss|KO|DE) R(\d{1,4}) T(\d{1,4})$")
_FORMATS = {
    "RR": gettext_lazy("Round robin"),
    "Swiss": gettext_lazy("Swiss"),
    "KO": gettext_lazy("Single-elimination knockout"),
    "DE": gettext_lazy("Double elimination"),
}


@register.filter
def match_label(label: str | None) -> str:
    found = _STORED.match(label or "")
    if found is None:
        return label or ""
    kind, round_, table = found.groups()
    return gettext("%(format)s, round %(round)s, table %(table)s") % {
        "format": _FORMATS[kind],
        "round": round_,
        "table": table,
    }
