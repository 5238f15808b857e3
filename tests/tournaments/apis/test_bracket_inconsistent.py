"""A bracket whose stored results do not fit it (a result naming a player who did not play
that table; a result put back in play for a withdrawn player after later rounds were played)
is answered as far as it is consistent, through the API and on the pages, never a 500:
what does not fit is marked (`problems`, and each such match's `problem`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

import eventstore
from eventstore import NewEvent
from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.domain.events import ResultCorrected, ResultEntry, ResultRecorded
from tournaments.domain.stored import event_to_stored
from tournaments.repository import tournament_states_forget

pytestmark = pytest.mark.django_db


def _started(organiser: Any, jobs: Any, n: int, **kwargs: Any) -> Any:
    t = make_tournament(organiser, make_bots(n, prefix=f"B{n}"), rounds=None, **kwargs)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    t.refresh_from_db()
    return t


def _store(t: Any, *events: Any) -> None:
    """Events as an old or imported stream may hold them: appended with no decision and
    no projection (the bracket is drawn from the events)."""
    t.refresh_from_db()
    new = [NewEvent(type=k, data={**d, "by": None, "reason": "test"}) for k, d in
           map(event_to_stored, events)]  # fmt: skip
    with transaction.atomic():
        eventstore.append(stream_id=t.stream_id, expected_version=t.version, events=new)
    tournament_states_forget()


def _bracket(client: Any, t: Any) -> dict[str, Any]:
    response = client.get(f"/api/tournaments/{t.pk}/bracket/")
    assert response.status_code == 200, response.content[:500]
    return response.json()


def _pages(client: Any, organiser: Any, t: Any) -> list[str]:
    """The public page and the desk's printed bracket, each answered (200)."""
    public = client.get(f"/tournaments/{t.pk}/")
    assert public.status_code == 200
    client.force_login(organiser)
    printed = client.get(f"/desk/{t.pk}/bracket/")
    assert printed.status_code == 200
    client.logout()
    return [public.content.decode(), printed.content.decode()]


def _table(t: Any, number: int, index: int):
    from tournaments.repository import state_of

    t.refresh_from_db()
    return state_of(tournament=t).rounds[number].tables[index]


def test_a_result_naming_someone_else_is_marked_and_the_rest_is_drawn(
    client: Any, api_client: Any, organiser: Any, jobs: Any
) -> None:
    t = _started(organiser, jobs, 6, format="double_elimination")
    first, second = _table(t, 1, 0), _table(t, 1, 1)
    stranger = second.player1  # plays the other table
    _store(t, ResultRecorded(result=ResultEntry(
        round=1, table=first.table, player1=first.player1, player2=first.player2,
        winner=stranger, games1=2, match=first.match, result="played",
    )))  # fmt: skip
    data = _bracket(api_client, t)
    by_id = {m["id"]: m for m in data["matches"]}
    assert data["problems"] == [
        {"match": first.slot, "round": 1, "table": first.table, "code": "not_a_player"}
    ]
    # The match with the result it cannot take is drawn as still to play, and marked.
    assert by_id[first.slot]["status"] == "ready" and by_id[first.slot]["winner"] is None
    assert by_id[first.slot]["problem"] == "not_a_player"
    assert by_id[second.slot]["problem"] is None
    assert set(by_id[second.slot]["players"]) == {second.player1, second.player2}
    assert data["champion"] is None
    for page in _pages(client, organiser, t):
        assert f'data-match="{first.slot}"' in page and f'data-match="{second.slot}"' in page
        # The page says which match's result was left out, and only that one.
        assert page.count('class="bracket-problem"') == 1
        box = page.split(f'data-match="{first.slot}"', 1)[1].split('data-match="', 1)[0]
        assert "result left out: its winner did not play this match" in box


def test_a_withdrawn_player_s_result_put_back_in_play_marks_the_later_result_it_breaks(
    client: Any, api_client: Any, organiser: Any, jobs: Any
) -> None:
    # 6 players: W1-2 (seeds 4-5) and W1-4 (3-6) play first; seeds 1 and 2 have byes.
    t = _started(organiser, jobs, 6, format="double_elimination")
    with jobs():
        forfeit_round(t, organiser, winner_seat=0)  # seed 4 beats 5, seed 3 beats 6
    t.refresh_from_db()
    assert t.current_round == 2
    with jobs():
        forfeit_round(t, organiser, winner_seat=1)  # W2-1: seed 4 beats seed 1
    w12 = next(x for x in _state(t).rounds[1].tables if x.slot == "W1-2")
    w21 = next(x for x in _state(t).rounds[2].tables if x.slot == "W2-1")
    four = w12.winner
    assert w21.winner == four
    services.tournament_withdraw(tournament_id=t.pk, player=_player(four), by=organiser)
    # W1-2's result no longer stands (a correction put it back in play): the bracket now
    # gives it to seed 5 by walkover, so W2-1's recorded winner did not play it.
    _store(t, ResultCorrected(round=1, table=w12.table, after=None))
    data = _bracket(api_client, t)
    by_id = {m["id"]: m for m in data["matches"]}
    assert by_id["W1-2"]["status"] == "walkover" and by_id["W1-2"]["winner"] != four
    assert {"match": "W2-1", "round": 2, "table": w21.table, "code": "not_a_player"} in data[
        "problems"
    ]
    assert by_id["W2-1"]["problem"] == "not_a_player" and by_id["W2-1"]["winner"] is None
    assert by_id["W1-4"]["status"] == "played"  # the rest stands
    for page in _pages(client, organiser, t):
        assert 'data-match="W2-1"' in page


def _state(t: Any):
    from tournaments.repository import state_of

    t.refresh_from_db()
    return state_of(tournament=t)


def _player(pk: int):
    from players.models import Player

    return Player.objects.get(pk=pk)


def test_a_knockout_result_naming_someone_else_is_marked(
    client: Any, api_client: Any, organiser: Any, jobs: Any
) -> None:
    t = _started(organiser, jobs, 4, format="knockout")
    first, second = _table(t, 1, 0), _table(t, 1, 1)
    _store(t, ResultRecorded(result=ResultEntry(
        round=1, table=first.table, player1=first.player1, player2=first.player2,
        winner=second.player2, games1=2, match=first.match, result="played",
    )))  # fmt: skip
    data = _bracket(api_client, t)
    by_id = {m["id"]: m for m in data["matches"]}
    assert data["problems"] == [
        {"match": "K1-1", "round": 1, "table": first.table, "code": "not_a_player"}
    ]
    assert by_id["K1-1"]["status"] == "ready" and by_id["K1-1"]["winner"] is None
    assert by_id["K1-1"]["problem"] == "not_a_player"
    assert by_id["K2-1"]["players"] == [None, None]  # nobody known from K1-1 or K1-2 yet
    for page in _pages(client, organiser, t):
        assert 'data-match="K1-1"' in page and 'data-match="K2-1"' in page
