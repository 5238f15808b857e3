"""Dispute cases: opened by a player, commented, resolved by an organiser with a ruling or
dismissed; each step an event of the match that changes no score by itself."""

import pytest

import eventstore
from games.selectors import match_state_at
from tests.factories import UserFactory
from tests.games.audit.helpers import finished_match
from tests.helpers import token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob, organiser):
    m = finished_match(alice, bob, seed="disputes")
    m.organisers.add(organiser)
    return m


def test_a_player_opens_a_dispute_and_an_organiser_dismisses_it(
    match, alice_client, organiser_client
):
    before, _ = match_state_at(match=match)
    response = alice_client.post(
        f"/api/matches/{match.pk}/disputes/",
        {"statement": "The upcard was never offered to me", "hand_number": 1},
        format="json",
    )
    assert response.status_code == 201, response.json()
    case = response.json()
    assert case["dispute"] == 1 and case["status"] == "open" and case["hand_number"] == 1
    queue = organiser_client.get("/api/disputes/").json()
    assert queue["count"] == 1 and queue["next"] is None  # paginated, like every list
    assert [(d["match"], d["dispute"]) for d in queue["results"]] == [(str(match.pk), 1)]
    comment = organiser_client.post(
        f"/api/matches/{match.pk}/disputes/1/comments/", {"comment": "Looking"}, format="json"
    )
    assert comment.status_code == 201
    done = organiser_client.post(
        f"/api/matches/{match.pk}/disputes/1/resolve/",
        {"outcome": "dismissed", "reason": "The replay shows the pass"},
        format="json",
    )
    assert done.status_code == 201, done.json()
    assert done.json()["status"] == "dismissed"
    assert done.json()["comments"] == [{"comment": "Looking", "by": "Olive Organiser"}]
    mine = alice_client.get(f"/api/matches/{match.pk}/disputes/").json()["results"]
    assert mine[0]["status"] == "dismissed" and mine[0]["reason"] == "The replay shows the pass"
    assert organiser_client.get("/api/disputes/").json()["results"] == []
    kinds = [e.type for e in eventstore.load(stream_id=match.stream_id)][-3:]
    assert kinds == ["DisputeOpened", "DisputeCommented", "DisputeResolved"]
    after, _ = match_state_at(match=match)
    assert after.scoresheet == before.scoresheet and after.winner == before.winner
    again = organiser_client.post(
        f"/api/matches/{match.pk}/disputes/1/resolve/",
        {"outcome": "dismissed", "reason": "twice"},
        format="json",
    )
    assert again.status_code == 409
    assert again.json()["error"] == again.json()["error"] | {
        "code": "conflict",
        "reason": "dispute_closed",
    }


def test_a_dispute_resolved_by_a_ruling_records_both(match, alice, bob_client, organiser_client):
    opened = bob_client.post(
        f"/api/matches/{match.pk}/disputes/", {"statement": "Score is wrong"}, format="json"
    )
    assert opened.status_code == 201 and opened.json()["hand_number"] is None
    response = organiser_client.post(
        f"/api/matches/{match.pk}/disputes/1/resolve/",
        {
            "outcome": "ruled",
            "reason": "Two points were missed",
            "ruling": {"type": "void_hand", "reason": "misdeal", "hand_number": 1},
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "ruled"
    kinds = [e.type for e in eventstore.load(stream_id=match.stream_id)]
    assert "HandVoided" in kinds[kinds.index("DisputeOpened") :]
    assert kinds[-1] == "DisputeResolved"
    state, _ = match_state_at(match=match, hand_results=True)
    assert state.hand_results[0].get("voided")


def test_bad_dispute_input_writes_nothing(match, alice_client, bob_client, organiser_client):
    version = match.version
    cases = [
        (alice_client, {"statement": ""}, 400),
        (alice_client, {"statement": "x", "hand_number": 99}, 400),
        (organiser_client, {"statement": "I am no player"}, 403),
        (token_client(UserFactory()), {"statement": "stranger"}, 403),
    ]
    for client, body, code in cases:
        response = client.post(f"/api/matches/{match.pk}/disputes/", body, format="json")
        assert response.status_code == code, (body, response.json())
        assert "code" in response.json()["error"]
    assert bob_client.post(
        f"/api/matches/{match.pk}/disputes/7/resolve/",
        {"outcome": "dismissed", "reason": "x"},
        format="json",
    ).status_code == 403  # fmt: skip
    missing = organiser_client.post(
        f"/api/matches/{match.pk}/disputes/7/resolve/",
        {"outcome": "dismissed", "reason": "x"},
        format="json",
    )
    assert missing.status_code == 404
    assert missing.json()["error"]["reason"] == "dispute_not_found"
    no_ruling = organiser_client.post(
        f"/api/matches/{match.pk}/disputes/7/resolve/", {"outcome": "ruled", "reason": "x"},
        format="json",
    )  # fmt: skip
    assert no_ruling.status_code == 400
    assert len(eventstore.load(stream_id=match.stream_id)) == version
    assert token_client(UserFactory()).get(f"/api/matches/{match.pk}/disputes/").status_code == 403


def test_the_admin_lists_matches_with_open_disputes_and_shows_each_case(
    client, match, alice, bob, alice_client, organiser_client
):
    other = finished_match(alice, bob, seed="no-dispute")
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)

    def listed(choice: str) -> set[str]:
        page = client.get(f"/admin/games/match/?disputes={choice}")
        assert page.status_code == 200
        return {str(m.pk) for m in page.context["cl"].result_list}

    assert listed("any") == set() and listed("open") == set()
    alice_client.post(
        f"/api/matches/{match.pk}/disputes/",
        {"statement": "Bob knocked with 12", "hand_number": 1},
        format="json",
    )
    assert listed("open") == {str(match.pk)} and listed("any") == {str(match.pk)}
    detail = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert "Bob knocked with 12" in detail and "<strong>open</strong>" in detail
    organiser_client.post(
        f"/api/matches/{match.pk}/disputes/1/resolve/",
        {"outcome": "dismissed", "reason": "Counted again: 8"},
        format="json",
    )
    assert listed("open") == set() and listed("any") == {str(match.pk)}
    assert str(other.pk) not in listed("any")
    detail = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert "Counted again: 8" in detail
