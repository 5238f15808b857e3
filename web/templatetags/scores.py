"""A pair of scores ("2–1", the first player's first): `{% load scores %}`, then
`{% score p.games1 p.games2 %}` (or `{% score a b as pair %}` for a sentence).

Digits take the direction of the letters before them (Unicode's bidi rule W7): after a
Latin letter a pair on a Persian page reads left to right, the second player's score first,
while the names beside it read right to left. The pair is therefore its own unit, isolated
and written in the page's direction (`dir`): the first player's score always comes first
where the page starts reading (on the right in Persian), as their name does. Its digits are
the page's (Persian digits on a Persian page: web.localize.PersianDigitsMiddleware)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language_bidi

register = template.Library()


def score_pair(first: Any, second: Any) -> SafeString:
    direction = "rtl" if get_language_bidi() else "ltr"
    return format_html('<span class="score" dir="{}">{}–{}</span>', direction, first, second)


@register.simple_tag
def score(first: Any, second: Any) -> SafeString:
    """The two scores as one unit in the page's direction (the module's docstring)."""
    return score_pair(first, second)
