"""The desk's walk-in and pasted names offer the club's players of a like name first, so
one person keeps one rating: nothing is made until the organiser says who it is."""

from __future__ import annotations

import pytest

from players.models import Club, Player
from tests.web.desk.helpers import table_swiss
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(td):
    club = Club.objects.create(name="Gin Club", slug="gin")
    club.organisers.add(td)
    stefan = Player.objects.create(name="Ștefan Popescu")
    ann = Player.objects.create(name="Ann Ionescu")
    club.members.add(stefan, ann)
    return {"club": club, "stefan": stefan, "ann": ann,
            "tournament": table_swiss(td, players=0, club=club)}  # fmt: skip


def _entered(tournament):
    return set(Registration.objects.filter(tournament=tournament).values_list("player", flat=True))


def test_a_walk_in_like_a_club_player_is_asked_about_first(client, night):
    tournament, stefan = night["tournament"], night["stefan"]
    url = f"/desk/{tournament.pk}/walk-in/"
    players = Player.objects.count()
    response = client.post(url, {"name": "stefan popescu"})
    page = response.content.decode()
    assert response.status_code == 200 and "Is it one of them?" in page
    assert f'name="player" value="{stefan.pk}"' in page and "<bdi>Ștefan Popescu</bdi>" in page
    assert Player.objects.count() == players and not _entered(tournament)
    # Someone else's id is not an answer.
    response = client.post(url, {"name": "stefan popescu", "player": night["ann"].pk})
    assert response.status_code == 400 and not _entered(tournament)
    assert client.post(url, {"name": "stefan popescu", "player": stefan.pk}).status_code == 302
    assert _entered(tournament) == {stefan.pk} and Player.objects.count() == players
    # "No: a new player" makes one.
    assert client.post(url, {"name": "Ann Ionescu", "new": "1"}).status_code == 302
    assert Player.objects.filter(name="Ann Ionescu").count() == 2
    # A name like nobody's makes a new player at once.
    assert client.post(url, {"name": "Zed Zukas"}).status_code == 302
    assert Player.objects.filter(name="Zed Zukas").exists()


def test_suggestions_as_the_name_is_typed(client, night):
    tournament = night["tournament"]
    url = f"/desk/{tournament.pk}/walk-in/similar/"
    fragment = client.get(url, {"name": "Stefan"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and "<bdi>Ștefan Popescu</bdi>" in fragment
    assert client.get(url, {"name": "Qx"}).content.decode().strip() == ""
    desk = client.get(f"/desk/{tournament.pk}/").content.decode()
    assert f'hx-get="{url}"' in desk and 'id="walk-in-similar"' in desk


def test_pasted_names_the_same_but_for_accents_are_the_clubs_players_others_asked(client, night):
    tournament, stefan, ann = night["tournament"], night["stefan"], night["ann"]
    url = f"/desk/{tournament.pk}/paste/"
    names = "stefan popescu\nAnn Ionesku\nNew Person"
    response = client.post(url, {"names": names})
    page = response.content.decode()
    assert response.status_code == 200 and 'id="paste-review"' in page
    assert "<legend><bdi>Ann Ionesku</bdi></legend>" in page and not _entered(tournament)
    assert "<legend><bdi>stefan popescu</bdi></legend>" not in page  # no question: him
    answer = {"names": names, "pick-for-1": "Ann Ionesku", "pick-1": str(ann.pk)}
    assert client.post(url, answer).status_code == 302
    new = Player.objects.get(name="New Person")
    assert _entered(tournament) == {stefan.pk, ann.pk, new.pk}


def test_a_pasted_name_answered_new_is_a_new_player(client, night):
    tournament = night["tournament"]
    url = f"/desk/{tournament.pk}/paste/"
    answer = {"names": "Ann Ionesku", "pick-for-1": "Ann Ionesku", "pick-1": "new"}
    assert client.post(url, answer).status_code == 302
    assert Player.objects.filter(name="Ann Ionesku").count() == 1
    assert night["ann"].pk not in _entered(tournament)
