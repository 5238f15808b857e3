"""A player's club rating beside their name on a tournament's pages (pairings, standings,
the desk's roster, their prints): `{% load ratings %}`, then `{{ ratings|rating_of:id }}`
for the rating alone, or `{{ player|with_rating:ratings }}` for the name and the rating
(inside a sentence that names two players). `ratings` is what
`tournaments.ratings.selectors.tournament_ratings_shown` returns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from web.localize import persian_digits

register = template.Library()


@register.filter
def rating_of(ratings: Mapping[int, Any] | None, player_id: Any) -> SafeString:
    """The rating as a small number after a name (a provisional one marked "?"), or
    nothing for a player without a rating in the club."""
    shown = (ratings or {}).get(player_id)
    if shown is None:
        return mark_safe("")  # noqa: S308 (empty)
    title = (
        gettext("club rating before this tournament") if shown.before else gettext("club rating")
    )
    mark = ""
    if shown.provisional:
        mark = "?"
        title = gettext("%(what)s (provisional)") % {"what": title}
    # The page's digits: a rating sits inside the name's <bdi>, whose text the Persian
    # page's digits leave as written (web.localize.PersianDigitsMiddleware).
    number = str(round(shown.rating))
    if get_language() == "fa":
        number = persian_digits(number)
    return format_html(' <span class="rating" title="{}">{}{}</span>', title, number, mark)


@register.filter
def with_rating(player: Any, ratings: Mapping[int, Any] | None) -> SafeString:
    """The player's name (escaped) and their rating, if any."""
    if player is None:
        return mark_safe("")  # noqa: S308 (empty)
    name = conditional_escape(getattr(player, "name", player))
    return mark_safe(f"{name}{rating_of(ratings, getattr(player, 'pk', None))}")  # noqa: S308
