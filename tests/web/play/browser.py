"""Driving the play page in a browser, through its hooks only (README "The play page's
hooks"): what a test or an automated client does to play a match by the page."""

from __future__ import annotations

import time
from typing import Any

from games.engine.melds import best_discard

ACTIONABLE = ("first-turn", "draw", "discard", "hand-over")


def sign_in(page: Any, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/desk/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form:has(input[name=password]) button[type=submit]")
    page.wait_for_url("**/me/")


def phase(page: Any) -> str:
    return page.get_attribute("#play", "data-phase") or ""


def version(page: Any) -> int:
    return int(page.get_attribute("#play", "data-version") or 0)


def my_cards(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "[data-hand] [data-card]", "els => els.map(e => e.dataset.card)"
    )


def _moved(page: Any, before: int, was: str) -> None:
    page.wait_for_function(
        "([v, p]) => { const r = document.getElementById('play');"
        " return Number(r.dataset.version) !== v || r.dataset.phase !== p; }",
        arg=[before, was],
    )


def act(page: Any, *, take_upcard: bool = False, on_confirm: Any = None) -> str:
    """One move of the page's player where the page offers one: pass (or take the upcard),
    draw from the stock, discard the card leaving the least deadwood or knock with it (the
    knock confirmed, no melds: the server lays them), the next hand. Returns what it did."""
    now, before = phase(page), version(page)
    if now == "first-turn":
        done = "take-upcard" if take_upcard else "pass"
        page.click(f"[data-action={done}]")
    elif now == "draw":
        done = "draw-stock"
        page.click("[data-action=draw-stock]")
    elif now == "discard":
        card, _ = best_discard(my_cards(page))
        page.click(f"[data-hand] [data-card='{card}']")
        if page.is_enabled("[data-action=knock]"):
            page.click("[data-action=knock]")
            page.wait_for_selector("[data-confirm] [data-deadwood]")
            if on_confirm is not None:
                on_confirm(page)  # e.g. a screenshot of the knock's preview
            page.click("[data-confirm] [data-action=confirm]")
            done = "knock"
        else:
            page.click("[data-action=discard]")
            done = "discard"
    elif now == "hand-over":
        page.click("[data-action=next-hand]")
        page.wait_for_function("document.getElementById('play').dataset.phase !== 'hand-over'")
        return "next-hand"
    else:
        return ""
    _moved(page, before, now)
    return done


def play_to_the_end(
    pages: list[Any], *, max_moves: int = 2000, on_move: Any = None, on_confirm: Any = None
) -> int:
    """Both pages play until both show match-over. Waits (no sleep) for the page to move
    whose turn it is. Returns the moves made."""
    moves = 0
    while moves < max_moves:
        phases = [phase(p) for p in pages]
        if all(p == "match-over" for p in phases):
            return moves
        acted = False
        for page in pages:
            if phase(page) in ACTIONABLE and act(page, on_confirm=on_confirm):
                moves += 1
                acted = True
                if on_move is not None:
                    on_move(moves)
        if not acted:
            _until_someone_may_move(pages)
    raise AssertionError("the match did not end")


_MAY_MOVE = (
    "() => ['first-turn', 'draw', 'discard', 'hand-over', 'match-over']"
    ".includes(document.getElementById('play').dataset.phase)"
)


def _until_someone_may_move(pages: list[Any], within: float = 120.0) -> None:
    """Wait until a page offers a move (the opponent's stream brings it): each page is
    asked in turn, a quarter of a second at a time, until `within` seconds have passed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for page in pages:
            try:
                page.wait_for_function(_MAY_MOVE, timeout=250)
                return
            except PlaywrightTimeout:
                continue
    states = [(phase(p), version(p)) for p in pages]
    raise AssertionError(f"no page offers a move: {states}; the matches: {_stored(pages)}")


def _stored(pages: list[Any]) -> dict[str, Any]:
    """What the database holds of the pages' matches and the jobs not yet sent (a failure
    says whether the page, the stream or a job was behind)."""
    from core.models import OutboxMessage
    from games.models import Match

    ids = [p.eval_on_selector("#play", "e => e.dataset.match") for p in pages]
    unsent = OutboxMessage.objects.filter(sent_at__isnull=True)
    return {
        "matches": list(Match.objects.filter(pk__in=ids).values_list("status", "version")),
        "unsent jobs": list(unsent.values_list("task", "args", "last_error")),
    }


def sheet_on_page(page: Any) -> dict[tuple[int, int], int]:
    cells = page.eval_on_selector_all(
        "[data-sheet] [data-game][data-player]",
        "els => els.map(e => [Number(e.dataset.game), Number(e.dataset.player),"
        " Number(e.dataset.value)])",
    )
    return {(g, p): v for g, p, v in cells}


def sheet_of_view(view: dict) -> dict[tuple[int, int], int]:
    return {
        (g["game"], int(pid)): score
        for g in view["scoresheet"]["games"]
        for pid, score in g["scores"].items()
    }
