"""`mapping|team:key`: a value of a dict by key in a template (a team by number, a name by
player id); None where there is none."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def team(mapping: dict[Any, Any], key: Any) -> Any:
    return mapping.get(key) if mapping else None
