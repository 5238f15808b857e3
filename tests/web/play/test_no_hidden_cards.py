"""No hidden card reaches a player: the opponent's cards and the stock's order, read as
the opponent would read them, are nowhere in the players' pages (their HTML and the JSON
in their scripts) nor in the match's stream. Checked after the deal and after a card
drawn from the stock (the drawer's secret)."""

import json
import re

import pytest
from django.test import Client

from games.engine.cards import FULL_DECK
from games.selectors import match_state_at
from games.services import match_act
from players.services import auth_token_issue
from tests.live.helpers import Follower
from tests.web.desk.helpers import asgi_server_with_static
from tests.web.play.helpers import online_match, players

CARD = set(FULL_DECK)


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _cards_in_html(html: str) -> set[str]:
    """Every card code the page carries: in its scripts' JSON, and quoted or as a card's
    text anywhere in its markup."""
    found = set()
    for body in re.findall(r"<script[^>]*>(.*?)</script>", html, re.S):
        try:
            found |= {s for s in _strings(json.loads(body)) if s in CARD}
        except ValueError:
            continue
    found |= {c for c in re.findall(r"[\"'>]([A2-9TJQK][CDHS])[\"'<]", html)}
    return found


def _hidden_from(state, seat: int) -> set[str]:
    """What `seat` may not see now: the opponent's hand (but cards it took face up from
    the pile) and the stock."""
    public = {card for _, card in state.picked_up}
    return (set(state.hands[1 - seat]) - public) | set(state.stock)


def _pages(client: Client, match) -> dict[str, str]:
    return {
        url: client.get(url).content.decode()
        for url in (
            f"/play/{match.pk}/",
            "/play/",
            "/me/",
            f"/matches/{match.pk}/",
            f"/matches/{match.pk}/replay/",
        )
    }


@pytest.mark.django_db(transaction=True)
def test_no_hidden_card_in_the_pages_or_the_stream(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 1
    settings.LIVE_POLL_SECONDS = 0.2
    ada, ben = players("Ada", "Ben")
    match = online_match(ada, ben, seed="hidden")
    ada_seat = match.seat_of(ada.pk)
    ada_client = Client()
    ada_client.force_login(ada.user)
    with asgi_server_with_static() as base:
        token = auth_token_issue(user=ada.user).key
        stream = Follower(
            f"{base}/api/matches/{match.pk}/stream/?after=0", {"Authorization": f"Token {token}"}
        )
        seen = stream.take(1, event="view")
        # Ben passes, Ada passes, Ben draws from the stock: a card only Ben may know.
        for player in (ben, ada, ben):
            state, version = match_state_at(match=match)
            action = (
                {"type": "pass"} if state.phase == "upcard" else {"type": "draw", "source": "stock"}
            )
            match_act(match_id=match.pk, player=player, action=action, expected_version=version)
        state, version = match_state_at(match=match)
        hidden = _hidden_from(state, ada_seat)
        assert len(hidden) == 11 + len(state.stock)
        # Up to the view after Ben's draw (however long a busy machine takes), and what
        # comes until the stream falls idle.
        messages = seen + stream.until(lambda m: m.event == "view" and m.data["version"] == version)
        messages += stream.until_idle()
        stream.close()
    leaked = {s for m in messages for s in _strings(m.data) if s in hidden}
    assert not leaked, f"the stream showed Ada {leaked}"
    for url, html in _pages(ada_client, match).items():
        leaked = _cards_in_html(html) & hidden
        assert not leaked, f"{url} showed Ada {leaked}"
    # And the checker sees a card where one is: Ada's own on her play page.
    assert set(state.hands[ada_seat]) <= _cards_in_html(
        _pages(ada_client, match)[f"/play/{match.pk}/"]
    )
