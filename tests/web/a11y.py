"""axe-core in the browser tests (issue 37): the rules of WCAG 2.2 AA run on a page, its
serious and critical violations returned in words a person can act on.

axe.min.js comes from the pinned PyPI package axe-playwright-python (its licence, MPL-2.0,
inside the file's header): no CDN, nothing downloaded by a test."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
SERIOUS = ("serious", "critical")


@cache
def axe_source() -> str:
    return (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def axe_violations(page: Any, *, impacts: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """axe's violations of WCAG 2.2 AA on the page as it is now, those of `impacts` only."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source())
    options = {"runOnly": {"type": "tag", "values": WCAG_22_AA}, "resultTypes": ["violations"]}
    results = page.evaluate("options => axe.run(document, options)", options)
    return [v for v in results["violations"] if v.get("impact") in impacts]


def described(violations: list[dict[str, Any]]) -> str:
    """One line a violation, with the first few elements it was found on."""
    lines = []
    for v in violations:
        targets = [json.dumps(n["target"]) for n in v["nodes"][:4]]
        more = f" (+{len(v['nodes']) - 4} more)" if len(v["nodes"]) > 4 else ""
        summary = v["nodes"][0].get("failureSummary", "").replace("\n", " ")[:240]
        lines.append(
            f"{v['impact']} {v['id']}: {v['help']} at {', '.join(targets)}{more}; {summary}"
        )
    return "\n".join(lines)
