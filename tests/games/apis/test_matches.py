"""The matches API contract: create, view, act, events, replay, verify, table hands,
rulings, errors, Idempotency-Key, lists."""

from __future__ import annotations

import pytest

from demo.bots import match_play_bots
from eventstore import stream_version
from games.models import Match
from tests.games.apis.helpers import ANN, BEN, MELDS, UPCARD, act, preset_deck
from tests.helpers import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann(alice):
    return alice


@pytest.fixture
def ben(bob):
    return bob


@pytest.fixture
def match(organiser_client, ann, ben):
    """Ann deals first; hands 1 and 2 use the preset deck."""
    response = organiser_client.post(
        "/api/matches/",
        {
            "player1": ann.id,
            "player2": ben.id,
            "first_dealer": ann.id,
            "decks": [preset_deck(), preset_deck()],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def error(response) -> str:
    return response.json()["error"]["code"]


class TestCreate:
    def test_organiser_creates_a_match(self, match, ann, ben):
        assert match["id"] and match["version"] >= 2
        assert match["status"] == "in_progress" and match["hand_number"] == 1
        assert [p["id"] for p in match["players"]] == [ann.id, ben.id]
        assert match["dealer"] == ann.id and match["turn"] == ben.id
        assert match["your_cards"] is None  # the organiser is not a player
        assert match["stock_count"] == 31 and match["discard_pile"] == [UPCARD]
        assert len(match["commitment"]) == 64

    def test_players_do_not_create_matches(self, alice_client, ann, ben):
        response = alice_client.post(
            "/api/matches/", {"player1": ann.id, "player2": ben.id}, format="json"
        )
        assert response.status_code == 403
        assert error(response) == "permission_denied"
        assert not Match.objects.exists()

    def test_ruleset_is_copied_into_the_match(self, organiser_client, ann, ben):
        response = organiser_client.post(
            "/api/matches/",
            {"player1": ann.id, "player2": ben.id, "ruleset": {"games": 1, "knock_limit": 5}},
            format="json",
        )
        assert response.status_code == 201
        assert response.json()["ruleset"]["games"] == 1
        assert response.json()["ruleset"]["knock_limit"] == 5
        assert len(response.json()["scoresheet"]["games"]) == 1

    @pytest.mark.parametrize(
        ("body", "code"),
        [
            ({"ruleset": {"knock_limit": 10, "jokers": True}}, "validation_error"),
            ({"ruleset": {"games": 2}}, "validation_error"),
            ({"decks": [["AS"] * 52]}, "invalid_deck"),
            ({"first_dealer": 999_999}, "validation_error"),
        ],
    )
    def test_invalid_matches_are_refused(self, organiser_client, ann, ben, body, code):
        response = organiser_client.post(
            "/api/matches/", {"player1": ann.id, "player2": ben.id, **body}, format="json"
        )
        assert response.status_code == 400
        assert error(response) == code
        assert not Match.objects.exists()

    def test_same_player_twice(self, organiser_client, ann):
        response = organiser_client.post(
            "/api/matches/", {"player1": ann.id, "player2": ann.id}, format="json"
        )
        assert response.status_code == 400
        body = response.json()["error"]
        assert (body["code"], body["reason"]) == ("validation_error", "same_player")
        assert "player2" in body["fields"]

    def test_seed_makes_deals_reproducible(self, organiser_client, ann, ben):
        bodies = [
            organiser_client.post(
                "/api/matches/",
                {"player1": ann.id, "player2": ben.id, "first_dealer": ann.id, "seed": "s"},
                format="json",
            ).json()
            for _ in range(2)
        ]
        assert bodies[0]["commitment"] != bodies[1]["commitment"]  # salts differ
        assert bodies[0]["discard_pile"] == bodies[1]["discard_pile"]


class TestView:
    def test_a_player_sees_own_cards_only(self, match, ann, ben, alice_client, bob_client):
        ben_view = bob_client.get(f"/api/matches/{match['id']}/").json()
        ann_view = alice_client.get(f"/api/matches/{match['id']}/").json()
        assert sorted(ben_view["your_cards"]) == sorted(BEN)
        assert sorted(ann_view["your_cards"]) == sorted(ANN)
        assert ben_view["opponent_card_count"] == 10
        assert not set(ANN) & set(str(ben_view))
        assert ben_view["legal_actions"] == [
            {"type": "draw", "source": "discard"},
            {"type": "pass"},
        ]
        assert ann_view["legal_actions"] == []

    def test_unknown_match(self, alice_client):
        for url in (
            "/api/matches/00000000-0000-0000-0000-000000000000/",
            "/api/matches/not-a-uuid/",
            "/api/matches/not-a-uuid/events/",
        ):
            response = alice_client.get(url)
            assert response.status_code == 404
            assert error(response) == "not_found"

    def test_anonymous(self, match):
        from rest_framework.test import APIClient

        response = APIClient().get(f"/api/matches/{match['id']}/")
        assert response.status_code == 401
        assert error(response) == "not_authenticated"


class TestActions:
    def test_knock_with_stated_melds_scores_the_hand(self, match, ann, ben, bob_client):
        mid = match["id"]
        taken = act(bob_client, mid, {"type": "draw", "source": "discard"})
        assert taken.status_code == 201, taken.json()
        assert UPCARD in taken.json()["your_cards"]
        knocked = act(bob_client, mid, {"type": "knock", "card": "KD", "melds": MELDS})
        assert knocked.status_code == 201, knocked.json()
        body = knocked.json()
        assert body["hand_number"] == 2
        hand = body["hands"][0]
        assert hand["kind"] == "knock" and hand["knocker"] == ben.id and hand["winner"] == ben.id
        assert hand["knocker_deadwood"] == 1
        assert hand["points"] == hand["defender_deadwood"] - 1
        ben_final = sorted([*BEN[:-1], UPCARD])  # KD was the knock discard
        # Each player's cards by player id (README "Who is who").
        assert {k: sorted(v) for k, v in hand["hands"].items()} == {
            str(ben.id): ben_final,
            str(match["players"][0]["id"]): sorted(ANN),
        }
        assert hand["knock"]["seat"] == 1 and hand["knock"]["player"] == ben.id
        assert body["scoresheet"]["games"][0]["scores"][str(ben.id)] == hand["points"]

    def test_knock_without_melds(self, match, bob_client):
        act(bob_client, match["id"], {"type": "draw", "source": "discard"})
        knocked = act(bob_client, match["id"], {"type": "knock", "card": "KD"})
        assert knocked.status_code == 201
        assert knocked.json()["hands"][0]["knocker_deadwood"] == 1

    def test_pass_then_draw_then_discard(self, match, ann, alice_client, bob_client):
        mid = match["id"]
        assert act(bob_client, mid, {"type": "pass"}).json()["turn"] == ann.id
        assert act(alice_client, mid, {"type": "pass"}).status_code == 201
        drawn = act(bob_client, mid, {"type": "draw", "source": "stock"}).json()
        assert len(drawn["your_cards"]) == 11 and drawn["stock_count"] == 30
        done = act(bob_client, mid, {"type": "discard", "card": "KD"}).json()
        assert done["discard_pile"][-1] == "KD" and done["turn"] == ann.id

    @pytest.mark.parametrize(
        ("who", "body", "status", "code"),
        [
            ("ann", {"type": "pass"}, 400, "not_your_turn"),
            ("ben", {"type": "draw", "source": "stock"}, 400, "illegal_action"),
            ("ben", {"type": "discard", "card": "KD"}, 400, "illegal_action"),
            ("ben", {"type": "fold"}, 400, "validation_error"),
            ("ben", {"type": "discard", "card": "ZZ"}, 400, None),
            ("ben", {"type": "pass", "expected_version": 1}, 409, "version_conflict"),
            ("organiser", {"type": "pass"}, 403, "permission_denied"),
            ("stranger", {"type": "pass"}, 403, "permission_denied"),
        ],
    )
    def test_rejected_actions_write_nothing(
        self,
        match,
        alice_client,
        bob_client,
        organiser_client,
        make_player,
        who,
        body,
        status,
        code,
    ):
        clients = {
            "ann": alice_client,
            "ben": bob_client,
            "organiser": organiser_client,
            "stranger": token_client(make_player().user),
        }
        before = stream_version(stream_id=Match.objects.get().stream_id)
        response = act(clients[who], match["id"], body)
        assert response.status_code == status, response.json()
        if code:
            assert error(response) == code
        assert response.json()["error"]["message"]
        assert stream_version(stream_id=Match.objects.get().stream_id) == before

    def test_illegal_action_names_the_rule(self, match, bob_client):
        response = act(bob_client, match["id"], {"type": "draw", "source": "stock"})
        assert response.json()["error"]["rule"]

    def test_invalid_meld_is_refused(self, match, bob_client):
        act(bob_client, match["id"], {"type": "draw", "source": "discard"})
        bad = [["7C", "8C", "KD"]]
        response = act(bob_client, match["id"], {"type": "knock", "card": "AS", "melds": bad})
        assert response.status_code == 400
        assert error(response) in ("invalid_meld", "illegal_action")

    def test_version_conflict_carries_the_current_version(self, match, bob_client):
        response = act(bob_client, match["id"], {"type": "pass", "expected_version": 99})
        assert response.status_code == 409
        assert response.json()["error"]["current_version"] == match["version"]
        ok = act(bob_client, match["id"], {"type": "pass", "expected_version": match["version"]})
        assert ok.status_code == 201 and ok.json()["version"] == match["version"] + 1

    def test_idempotency_key_on_actions(self, match, bob_client):
        first = act(bob_client, match["id"], {"type": "pass"}, HTTP_IDEMPOTENCY_KEY="a-1")
        again = act(bob_client, match["id"], {"type": "pass"}, HTTP_IDEMPOTENCY_KEY="a-1")
        assert first.status_code == again.status_code == 201
        assert again.json() == first.json()
        assert stream_version(stream_id=Match.objects.get().stream_id) == match["version"] + 1
        other = act(
            bob_client, match["id"], {"type": "draw", "source": "stock"}, HTTP_IDEMPOTENCY_KEY="a-1"
        )
        assert other.status_code == 422 and error(other) == "idempotency_key_reused"


class TestFollowAndAudit:
    def test_events_after(self, match, bob_client, alice_client):
        act(bob_client, match["id"], {"type": "pass"})
        feed = alice_client.get(f"/api/matches/{match['id']}/events/").json()
        types = [e["type"] for e in feed["results"]]
        assert types == ["MatchStarted", "HandDealt", "UpcardPassed"]
        assert feed["count"] == 3
        dealt = feed["results"][1]["data"]
        assert "deck" not in dealt and dealt["commitment"] == match["commitment"]
        later = alice_client.get(f"/api/matches/{match['id']}/events/?after=2").json()
        assert [e["version"] for e in later["results"]] == [3]
        bad = alice_client.get(f"/api/matches/{match['id']}/events/?after=-1")
        assert bad.status_code == 400 and error(bad) == "validation_error"

    def test_replay_of_an_ended_hand(self, match, bob_client, alice_client, organiser_client):
        mid = match["id"]
        act(bob_client, mid, {"type": "draw", "source": "discard"})
        act(bob_client, mid, {"type": "knock", "card": "KD"})
        replay = alice_client.get(f"/api/matches/{mid}/replay/?version=3")
        assert replay.status_code == 200, replay.json()
        state = replay.json()["state"]
        ben = str(match["players"][1]["id"])  # by player id, as in the match's view
        assert sorted(state["hands"][ben]) == sorted(BEN + [UPCARD])
        assert state["dealer"] == match["dealer"] and state["turn"] == match["turn"]
        assert set(state["scoresheet"]["totals"]) == {str(p["id"]) for p in match["players"]}
        assert organiser_client.get(f"/api/matches/{mid}/replay/?version=3").status_code == 200

    def test_no_replay_of_a_live_hand(self, match, bob_client, make_player):
        mid = match["id"]
        live = bob_client.get(f"/api/matches/{mid}/replay/?version={match['version']}")
        assert live.status_code == 409
        assert error(live) == "conflict"
        assert live.json()["error"]["reason"] == "hand_in_play"
        stranger = token_client(make_player().user)
        assert stranger.get(f"/api/matches/{mid}/replay/?version=1").status_code == 403
        assert bob_client.get(f"/api/matches/{mid}/replay/?version=999").status_code == 400
        assert bob_client.get(f"/api/matches/{mid}/replay/").status_code == 400

    def test_verify(self, match, bob_client, alice_client):
        act(bob_client, match["id"], {"type": "pass"})
        body = alice_client.get(f"/api/matches/{match['id']}/verify/").json()
        assert body == {"ok": True, "events": match["version"] + 1}

    def test_list_is_filtered_and_paginated(self, match, organiser_client, ann, make_player):
        other = organiser_client.post(
            "/api/matches/",
            {"player1": make_player().id, "player2": make_player().id},
            format="json",
        ).json()
        everything = organiser_client.get("/api/matches/").json()
        assert everything["count"] == 2
        mine = organiser_client.get(f"/api/matches/?player={ann.id}").json()
        assert [m["id"] for m in mine["results"]] == [match["id"]]
        page = organiser_client.get("/api/matches/?limit=1").json()
        assert len(page["results"]) == 1 and page["next"]
        assert organiser_client.get("/api/matches/?status=finished").json()["count"] == 0
        assert {m["id"] for m in everything["results"]} == {match["id"], other["id"]}
        ann_mine = token_client(ann.user).get("/api/matches/?mine=true").json()
        assert [m["id"] for m in ann_mine["results"]] == [match["id"]]


@pytest.fixture
def table_match(organiser_client, ann, ben):
    response = organiser_client.post(
        "/api/matches/",
        {"player1": ann.id, "player2": ben.id, "mode": "table", "ruleset": {"games": 1}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


class TestTableHands:
    def test_record_scored_and_drawn_hands(self, table_match, organiser_client, ann, ben):
        url = f"/api/matches/{table_match['id']}/hands/"
        scored = organiser_client.post(
            url,
            {"knocker": ann.id, "gin": False, "knocker_deadwood": 4, "defender_deadwood": 30},
            format="json",
        )
        assert scored.status_code == 201, scored.json()
        assert scored.json()["scoresheet"]["games"][0]["scores"][str(ann.id)] == 26
        drawn = organiser_client.post(url, {"drawn": True}, format="json")
        assert drawn.status_code == 201
        assert len(drawn.json()["hands"]) == 2
        gin = organiser_client.post(
            url,
            {"knocker": ben.id, "gin": True, "knocker_deadwood": 0, "defender_deadwood": 75},
            format="json",
        ).json()
        assert gin["status"] == "finished" and gin["winner"] == ben.id

    def test_only_organisers_record(self, table_match, alice_client, ann):
        response = alice_client.post(
            f"/api/matches/{table_match['id']}/hands/", {"drawn": True}, format="json"
        )
        assert response.status_code == 403

    def test_incomplete_hand(self, table_match, organiser_client, ann):
        response = organiser_client.post(
            f"/api/matches/{table_match['id']}/hands/", {"knocker": ann.id}, format="json"
        )
        assert response.status_code == 400 and error(response) == "validation_error"

    def test_online_matches_record_no_hands(self, match, organiser_client):
        response = organiser_client.post(
            f"/api/matches/{match['id']}/hands/", {"drawn": True}, format="json"
        )
        assert response.status_code == 400


class TestRulings:
    def rule(self, client, match_id, body):
        return client.post(f"/api/matches/{match_id}/rulings/", body, format="json")

    def test_void_hand_deals_again(self, match, organiser_client):
        response = self.rule(organiser_client, match["id"], {"type": "void_hand", "reason": "x"})
        assert response.status_code == 201, response.json()
        assert response.json()["hand_number"] == 2
        assert response.json()["hands"][0]["kind"] == "voided"

    def test_adjust_score(self, match, organiser_client, ann):
        body = {"type": "adjust_score", "reason": "miscount", "player": ann.id, "game": 1}
        response = self.rule(organiser_client, match["id"], {**body, "points": 7})
        assert response.status_code == 201, response.json()
        assert response.json()["scoresheet"]["games"][0]["scores"][str(ann.id)] == 7

    def test_forfeit(self, match, organiser_client, ben):
        body = {"type": "forfeit", "reason": "no show", "player": ben.id}
        response = self.rule(organiser_client, match["id"], body)
        assert response.status_code == 201, response.json()
        assert response.json()["status"] == "finished" and response.json()["winner"] == ben.id

    def test_only_organisers_rule(self, match, alice_client):
        response = self.rule(alice_client, match["id"], {"type": "void_hand", "reason": "x"})
        assert response.status_code == 403
        assert error(response) == "permission_denied"

    def test_reason_required(self, match, organiser_client):
        response = self.rule(organiser_client, match["id"], {"type": "void_hand"})
        assert response.status_code == 400 and error(response) == "validation_error"

    def test_cancel_ends_the_match_with_no_winner(self, match, organiser_client, bob_client, ann):
        body = {"type": "cancel", "reason": "round 1 re-paired"}
        response = self.rule(organiser_client, match["id"], body)
        assert response.status_code == 201, response.json()
        cancelled = response.json()
        assert cancelled["status"] == "finished" and cancelled["winner"] is None
        assert cancelled["finish_reason"] == "cancelled" and cancelled["legal_actions"] == []
        assert cancelled["rulings"][-1]["type"] == "MatchCancelled"
        refused = act(bob_client, match["id"], {"type": "pass"})
        # The state refuses it, not the rules: 409 conflict, reason match_finished.
        assert refused.status_code == 409 and error(refused) == "conflict"
        assert refused.json()["error"]["reason"] == "match_finished"
        assert refused.json()["error"]["rule"] == "8 match end"
        listed = token_client(ann.user).get("/api/matches/?mine=true&status=in_progress").json()
        assert listed["count"] == 0
        finished = token_client(ann.user).get("/api/matches/?mine=true&status=finished").json()
        assert [m["finish_reason"] for m in finished["results"]] == ["cancelled"]
        again = self.rule(organiser_client, match["id"], body)
        assert again.status_code == 409 and again.json()["error"]["reason"] == "match_finished"

    def test_cancel_needs_an_organiser_and_a_reason(self, match, organiser_client, alice_client):
        by_player = self.rule(alice_client, match["id"], {"type": "cancel", "reason": "bored"})
        assert by_player.status_code == 403
        no_reason = self.rule(organiser_client, match["id"], {"type": "cancel"})
        assert no_reason.status_code == 400 and error(no_reason) == "validation_error"
        assert Match.objects.get(pk=match["id"]).status == "in_progress"


def test_a_player_resigns(match, alice_client, ben):
    response = act(alice_client, match["id"], {"type": "resign"})
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "finished"
    assert response.json()["winner"] == ben.id


def test_specific_reason_is_kept_under_the_contract_code(match, make_player):
    stranger = token_client(make_player().user)
    response = act(stranger, match["id"], {"type": "pass"})
    assert response.json()["error"]["code"] == "permission_denied"
    assert response.json()["error"]["reason"] == "not_a_player"


def test_idempotent_match_creation(organiser_client, ann, ben):
    body = {"player1": ann.id, "player2": ben.id, "seed": "k"}
    first = organiser_client.post("/api/matches/", body, format="json", HTTP_IDEMPOTENCY_KEY="m1")
    again = organiser_client.post("/api/matches/", body, format="json", HTTP_IDEMPOTENCY_KEY="m1")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert Match.objects.count() == 1


def test_idempotent_table_hand(table_match, organiser_client):
    url = f"/api/matches/{table_match['id']}/hands/"
    for _ in range(2):
        response = organiser_client.post(
            url, {"drawn": True}, format="json", HTTP_IDEMPOTENCY_KEY="h1"
        )
        assert response.status_code == 201
    assert len(organiser_client.get(f"/api/matches/{table_match['id']}/").json()["hands"]) == 1


def test_the_list_gives_games_and_points_by_player_id_as_the_view(match, alice_client, ann, ben):
    match_play_bots(match_id=match["id"], bots_only=False)
    view = alice_client.get(f"/api/matches/{match['id']}/").json()
    listed = alice_client.get("/api/matches/?mine=true").json()["results"]
    entry = next(m for m in listed if m["id"] == match["id"])
    assert set(entry["games_won"]) == set(entry["points"]) == {str(ann.id), str(ben.id)}
    assert entry["games_won"] == view["scoresheet"]["games_won"]
    assert entry["points"] == view["scoresheet"]["totals"]
    assert max(entry["games_won"].values()) >= 1 and "games_won_p1" not in entry
