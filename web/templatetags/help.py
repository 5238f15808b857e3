"""The "Help" link of a screen: its part of the manual or of the players' help
(web.manual.HELP, by the screen's URL name)."""

from __future__ import annotations

from typing import Any

from django import template

from web.manual import help_url

register = template.Library()


@register.simple_tag(takes_context=True)
def help_for_screen(context: Any, default: str = "desk") -> str:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    return help_url(getattr(match, "url_name", None), default)
