"""The clubs, ratings and seasons API: shapes, who may change what, clear 4xx codes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

import eventstore
from players.models import Club, Player
from players.services import player_create
from tests.helpers import token_client
from tournaments.ratings.models import ClubRating, RatingEntry

pytestmark = pytest.mark.django_db


def _other_club_organiser():
    user = get_user_model().objects.create_user(username="other", password="pw-other-1")
    Club.objects.create(name="Other Club", slug="other").organisers.add(user)
    return user


def test_clubs_are_created_by_organisers_and_changed_by_their_own(organiser):
    org = token_client(organiser)
    created = org.post(
        "/api/clubs/",
        {"name": "Chess & Gin", "time_zone": "Europe/Bucharest"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["slug"] == "chess-gin" and body["time_zone"] == "Europe/Bucharest"
    assert body["rating_settings"]["initial_rating"] == 1500.0
    assert body["rating_settings"]["tau"] == 0.5
    club_id = body["id"]
    assert org.post("/api/clubs/", {"name": "chess & gin"}, format="json").status_code == 400
    bad_zone = org.post(
        "/api/clubs/", {"name": "Elsewhere", "time_zone": "Mars/Base"}, format="json"
    )
    assert bad_zone.status_code == 400 and bad_zone.json()["error"]["fields"]["time_zone"]
    other = token_client(_other_club_organiser())
    refused = other.patch(f"/api/clubs/{club_id}/", {"name": "Mine now"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"]["reason"] == "not_club_organiser"
    renamed = org.patch(f"/api/clubs/{club_id}/", {"name": "Gin & Chess"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Gin & Chess"
    assert APIClient().get(f"/api/clubs/{club_id}/").status_code == 200
    assert APIClient().get("/api/clubs/99999/").json()["error"]["code"] == "not_found"
    player = player_create(name="Pat", username="pat", password="secret-pass-1")
    assert token_client(player.user).post("/api/clubs/", {"name": "X"}).status_code == 403


def test_members_are_added_listed_and_removed(organiser, club):
    org = token_client(organiser)
    ann = Player.objects.create(name="Ann")
    assert org.post(f"/api/clubs/{club.pk}/members/", {"player": ann.pk}).status_code == 201
    listed = org.get(f"/api/clubs/{club.pk}/members/").json()
    assert listed["count"] == 1 and listed["results"] == [{"id": ann.pk, "name": "Ann"}]
    unknown = org.post(f"/api/clubs/{club.pk}/members/", {"player": 999999})
    assert unknown.status_code == 400 and unknown.json()["error"]["fields"]["player"]
    other = token_client(_other_club_organiser())
    assert other.post(f"/api/clubs/{club.pk}/members/", {"player": ann.pk}).status_code == 403
    assert other.delete(f"/api/clubs/{club.pk}/members/?player={ann.pk}").status_code == 403
    assert org.delete(f"/api/clubs/{club.pk}/members/?player={ann.pk}").status_code == 204
    assert org.delete(f"/api/clubs/{club.pk}/members/?player={ann.pk}").status_code == 404
    assert APIClient().get(f"/api/clubs/{club.pk}/members/").status_code == 401


def test_the_rating_list_best_first_paginated(rated_club):
    club = rated_club["club"]
    page = APIClient().get(f"/api/clubs/{club.pk}/ratings/?limit=4").json()
    assert page["count"] == 6 and len(page["results"]) == 4 and page["next"]
    entry = page["results"][0]
    assert set(entry) == {"player", "name", "rating", "rd", "volatility", "provisional",
                          "matches", "periods"}  # fmt: skip
    ratings = [e["rating"] for e in page["results"]]
    assert ratings == sorted(ratings, reverse=True)
    row = ClubRating.objects.get(club=club, player_id=entry["player"])
    assert entry["rating"] == row.rating  # unrounded
    assert entry["matches"] == 9 and entry["periods"] == 3
    assert entry["provisional"] == (row.rd > 110)


def test_a_players_history_in_a_club(rated_club):
    club, ann = rated_club["club"], rated_club["players"][0]
    body = APIClient().get(f"/api/players/{ann.pk}/ratings/?club={club.pk}").json()
    assert body["count"] == 3
    first, second = body["results"][:2]
    assert set(first) == {"tournament", "finished_at", "rating_before", "rd_before",
                          "volatility_before", "rating", "rd", "volatility", "played",
                          "rerated"}  # fmt: skip
    assert first["rating_before"] == 1500 and first["rd_before"] == 350
    assert second["rating_before"] == first["rating"]
    assert len(first["played"]) == 3 and {p["score"] for p in first["played"]} <= {0.0, 1.0}
    assert first["finished_at"].endswith("Z") and first["rerated"] == []
    missing = APIClient().get(f"/api/players/{ann.pk}/ratings/")
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "validation_error"
    assert APIClient().get(f"/api/players/{ann.pk}/ratings/?club=x").status_code == 400
    assert APIClient().get(f"/api/players/{ann.pk}/ratings/?club=99999").status_code == 404


def test_private_tournaments_count_but_are_not_named_to_strangers(rated_club, organiser):
    club, ann = rated_club["club"], rated_club["players"][0]
    private = rated_club["evenings"][1][0]
    private.is_public = False
    private.save(update_fields=["is_public"])
    url = f"/api/players/{ann.pk}/ratings/?club={club.pk}"
    seen = APIClient().get(url).json()["results"]
    assert [e["tournament"] for e in seen][1] is None and seen[1]["played"] == []
    assert seen[1]["rating"] == RatingEntry.objects.get(tournament=private, player=ann).rating
    by_organiser = token_client(organiser).get(url).json()["results"]
    assert by_organiser[1]["tournament"] == private.pk and by_organiser[1]["played"]


def test_a_player_may_keep_the_page_to_the_club(rated_club, organiser):
    club, ann = rated_club["club"], rated_club["players"][0]
    ann.page_visibility = Player.PageVisibility.CLUB
    ann.save(update_fields=["page_visibility"])
    url = f"/api/players/{ann.pk}/ratings/?club={club.pk}"
    assert APIClient().get(url).status_code == 404
    stranger = player_create(name="Stranger", username="stranger", password="secret-pass-1")
    assert token_client(stranger.user).get(url).status_code == 404
    assert token_client(organiser).get(url).status_code == 200
    member = player_create(name="Member", username="member", password="secret-pass-1")
    club.members.add(member)
    assert token_client(member.user).get(url).status_code == 200


def test_a_settings_change_is_an_event_and_rerates_from_the_first_period(rated_club, organiser):
    club = rated_club["club"]
    before = dict(ClubRating.objects.filter(club=club).values_list("player_id", "rating"))
    org = token_client(organiser)
    bad = org.patch(f"/api/clubs/{club.pk}/", {"rating_settings": {"rd_min": 400}}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["fields"]["rating_settings"]
    unknown = org.patch(f"/api/clubs/{club.pk}/", {"rating_settings": {"k": 3}}, format="json")
    assert unknown.status_code == 400
    other = token_client(_other_club_organiser())
    refused = other.patch(
        f"/api/clubs/{club.pk}/", {"rating_settings": {"tau": 1.0}}, format="json"
    )
    assert refused.status_code == 403
    changed = org.patch(
        f"/api/clubs/{club.pk}/",
        {"rating_settings": {"initial_rating": 1200}, "reason": "club tradition"},
        format="json",
    )
    assert (
        changed.status_code == 200 and changed.json()["rating_settings"]["initial_rating"] == 1200
    )
    events = eventstore.load(stream_id=f"club-{club.pk}")
    assert [e.type for e in events] == ["ClubRatingSettingsChanged"]
    assert (
        events[0].data["old"]["initial_rating"] == 1500
        and events[0].data["reason"] == "club tradition"
    )
    after = dict(ClubRating.objects.filter(club=club).values_list("player_id", "rating"))
    assert all(after[p] < before[p] for p in before)
    entries = RatingEntry.objects.filter(club=club)
    ann = rated_club["players"][0]
    history = APIClient().get(f"/api/players/{ann.pk}/ratings/?club={club.pk}").json()["results"]
    assert len(history) == 3
    assert all(e["rerated"][-1]["reason"] == "club rating settings changed" for e in history)
    assert {e.rating_before for e in entries.filter(tournament=rated_club["evenings"][0][0])} == {
        1200
    }


def test_seasons_best_n_of_m_and_the_csv(rated_club, organiser):
    club = rated_club["club"]
    org = token_client(organiser)
    body = {"name": "Autumn", "starts_on": "2000-01-01", "ends_on": "2999-12-31",
            "place_points": [10, 6, 4, 3, 2, 1], "participation_points": 1,
            "best_of": 2}  # fmt: skip
    other = token_client(_other_club_organiser())
    assert other.post(f"/api/clubs/{club.pk}/seasons/", body, format="json").status_code == 403
    wrong = org.post(
        f"/api/clubs/{club.pk}/seasons/", {**body, "ends_on": "1999-01-01"}, format="json"
    )
    assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "validation_error"
    created = org.post(f"/api/clubs/{club.pk}/seasons/", body, format="json")
    assert created.status_code == 201, created.json()
    season_id = created.json()["id"]
    assert APIClient().get(f"/api/clubs/{club.pk}/seasons/").json()["count"] == 1
    table = APIClient().get(f"/api/seasons/{season_id}/standings/").json()
    assert table["count"] == 6
    top = table["results"][0]
    assert top["rank"] == 1 and len(top["counted"]) == 2 and top["played"] == 3
    assert top["points"] == sum(c["points"] for c in top["counted"])
    assert all(c["points"] in (11, 7, 5, 4, 3, 2) for c in top["counted"])
    csv = APIClient().get(f"/api/seasons/{season_id}/standings.csv")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0].startswith("Rank,Player,Points") and len(lines) == 7
    assert APIClient().get("/api/seasons/99999/standings/").status_code == 404
