"""`{% load bidi %}`, then `{{ name|isolate }}`: a name where no <bdi> can go (a page's
<title>, an attribute), between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL
ISOLATE, so that its own direction (and any override inside it) stays inside it."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter(is_safe=True)
def isolate(value: Any) -> str:
    return f"\u2068{value}\u2069"
