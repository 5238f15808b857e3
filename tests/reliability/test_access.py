"""Issue 14 items 8 and 12: who may read a match through the API (the access matrix over
every match endpoint, for a match of a private and of a public tournament), and matches
whose deals an organiser chose are marked so and never a tournament's; and the access matrix
over every endpoint of the API (each role, GET and writes, private and public)."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import MatchDealPlan
from players.models import Club
from tests.helpers import token_client
from tests.reliability.helpers import api_routes, fill, role_clients, tournament_with_a_match
from tournaments.models import Pairing
from tournaments.ratings.models import Season
from tournaments.teams.services import team_event_create

pytestmark = pytest.mark.django_db


def endpoints(match_id: str) -> dict[str, str]:
    return {
        "detail": f"/api/matches/{match_id}/",
        "events": f"/api/matches/{match_id}/events/",
        "verify": f"/api/matches/{match_id}/verify/",
        "replay": f"/api/matches/{match_id}/replay/?version=1",
    }


# Who sees a private tournament's match: its players, its organisers, staff.
PRIVATE = {
    "anonymous": 401,
    "player": "seen",
    "stranger": 404,
    "organiser": "seen",
    "other_organiser": 404,
    "staff": "seen",
}
# A public tournament's match: anyone, signed out too (issue 13).
PUBLIC = {**PRIVATE, "anonymous": "seen", "stranger": "seen", "other_organiser": "seen"}


@pytest.mark.parametrize(("is_public", "matrix"), [(False, PRIVATE), (True, PUBLIC)])
def test_the_access_matrix(is_public, matrix, organiser, make_player):
    players = [make_player("Pia"), make_player("Quinn")]
    _, match_id = tournament_with_a_match(organiser=organiser, players=players, is_public=is_public)
    clients = role_clients(player=players[0], organiser=organiser)
    for role, expected in matrix.items():
        client = clients[role]
        for name, path in endpoints(match_id).items():
            status = client.get(path).status_code
            if expected == "seen":
                # Seen: the replay may still be refused (403 to non-auditors, 409 for a
                # hand in play), but never as if the match did not exist.
                assert status not in (401, 404), (role, name, status)
                if name != "replay":
                    assert status == 200, (role, name, status)
            else:
                assert status == expected, (role, name, status)
        listed = client.get("/api/matches/?limit=500")
        if role == "anonymous":  # lists are for signed-in callers
            assert listed.status_code == 401
            continue
        ids = {m["id"] for m in listed.json()["results"]}
        assert (match_id in ids) == (expected == "seen"), (role, "list")


def test_a_hidden_match_s_actions_do_not_leak_it(organiser, make_player):
    players = [make_player("Pia"), make_player("Quinn")]
    _, match_id = tournament_with_a_match(organiser=organiser, players=players, is_public=False)
    stranger = role_clients(player=players[0], organiser=organiser)["stranger"]
    response = stranger.get(f"/api/matches/{match_id}/")
    assert response.json()["error"]["code"] == "not_found"
    unknown = stranger.get("/api/matches/00000000-0000-0000-0000-000000000000/")
    assert response.json() == unknown.json()


# --- preset deals ---------------------------------------------------------------------------


def test_a_match_with_chosen_deals_is_marked_in_every_view(organiser_client, alice, bob):
    seeded = organiser_client.post(
        "/api/matches/", {"player1": alice.id, "player2": bob.id, "seed": "s1"}, format="json"
    ).json()
    plain = organiser_client.post(
        "/api/matches/", {"player1": alice.id, "player2": bob.id}, format="json"
    ).json()
    assert (seeded["preset_deals"], plain["preset_deals"]) == (True, False)
    detail = organiser_client.get(f"/api/matches/{seeded['id']}/").json()
    assert detail["preset_deals"] is True
    listed = organiser_client.get("/api/matches/").json()["results"]
    assert {m["id"]: m["preset_deals"] for m in listed} == {seeded["id"]: True, plain["id"]: False}


def test_tournament_matches_never_have_chosen_deals(organiser, make_player):
    players = [make_player(f"P{i}") for i in range(6)]
    tournament, _ = tournament_with_a_match(organiser=organiser, players=players, is_public=True)
    match_ids = Pairing.objects.filter(round__tournament=tournament, match__isnull=False)
    match_ids = list(match_ids.values_list("match_id", flat=True))
    assert len(match_ids) == 3
    assert not MatchDealPlan.objects.filter(match_id__in=match_ids).exists()


# --- the access matrix over every endpoint --------------------------------------------------
# One row per URL pattern of the API, found from the URL resolver: a new endpoint without a
# row fails `test_every_api_endpoint_has_a_row`, naming it. GET: what each role gets, for a
# private and for a public tournament (and its match). Writes: the roles that may not, each
# of which gets 401/403/404 (or 400, where the row says the body is checked first: then a
# refused body) and writes nothing.

ROLES = ("anonymous", "player", "player2", "stranger", "organiser", "other_organiser", "staff")
SEES_PRIVATE = {"player", "player2", "organiser", "staff"}  # a private tournament, its match


def everyone(status) -> object:
    return lambda role, public: status


def signed_in(role, public):
    return 401 if role == "anonymous" else 200


def me(role, public):
    return {"anonymous": 401, "staff": 404}.get(role, 200)  # staff here has no player


def match(role, public):
    if public:
        return 200  # anyone, signed out too (issue 13)
    if role == "anonymous":
        return 401
    return 200 if role in SEES_PRIVATE else 404


def match_replay(role, public):
    # Seen: the replay may still be refused (403, 409 while the hand is in play).
    seen = match(role, public)
    return seen if seen != 200 else {200, 403, 409}


def match_audit(role, public):
    """The bundle and the disputes: for the match's players, its organisers and staff; a
    public match's onlookers are refused, a hidden match is not found (as an unknown one)."""
    if role == "anonymous":
        return 401
    if role in SEES_PRIVATE:
        return 200
    return 403 if public else 404


def match_bundle(role, public):
    """The audit bundle: as the disputes, but anonymous callers of a public match get the
    same refusal as signed-in onlookers while it is in play; of another match, a 401."""
    if role == "anonymous":
        return 403 if public else 401
    return match_audit(role, public)


def tournament(role, public):
    return 200 if public or role in SEES_PRIVATE else 404


def live(role, public):
    return 503  # served by the live (ASGI) service, not WSGI: tests/live check who sees it


def tournament_organisers(role, public):
    """Its organisers and staff only (webhooks); the ones named here do not exist: 404."""
    if role in ("organiser", "staff"):
        return {200, 404}
    return 401 if role == "anonymous" else {403, 404}


def team_event(role, public):
    """A team event: anyone when public; a private one its organisers and staff (issue 39)."""
    return 200 if public or role in ("organiser", "staff") else 404


def me_calendar(role, public):
    """The caller's own feed address: anyone signed in with a player (400 without one)."""
    return 401 if role == "anonymous" else {200, 400}


def organisers_read(role, public):
    """Read by its organisers and staff only (a tournament's entry rules)."""
    if role in ("organiser", "staff"):
        return 200
    return {401, 403, 404}


def no_get(role, public):
    return {401, 403, 404, 405}


PLAYERS = {"player", "player2"}
ORGANISERS_ONLY = {"anonymous", "player", "player2", "stranger"}
NOT_THE_MATCH_S = {"anonymous", "stranger", "other_organiser"}
NOT_THE_TOURNAMENT_S = {"anonymous", "player", "player2", "stranger", "other_organiser"}
# A club's things: its organisers (the tournament's organiser here) and staff; the other
# organiser organises a second club, and nothing of this one.
NOT_THE_CLUB_S = {"anonymous", "player", "player2", "stranger", "other_organiser"}


def private_only(roles: set[str]) -> object:
    """Public tournaments take anyone's registration; private ones their invited players."""
    return lambda public: {"anonymous"} if public else roles


# route -> (GET policy, {method: (roles refused, body, the body is checked first)})
ROWS: dict[str, tuple] = {
    "api/schema/": (everyone(200), {}),
    "api/docs/": (everyone(200), {}),
    "api/redoc/": (everyone(200), {}),
    "api/ping/": (signed_in, {}),
    "api/auth/token/": (no_get, {}),  # anyone may log in
    "api/auth/token/refresh/": (no_get, {"POST": ({"anonymous"}, {}, False)}),  # its own token
    "api/auth/tokens/": (signed_in, {"POST": ({"anonymous"}, {"name": "bot"}, False)}),
    "api/auth/tokens/<int:token_id>/": (no_get, {}),  # one's own tokens only
    "api/streams/ticket/": (
        no_get,
        {"POST": ({"anonymous"}, {"stream": "/api/tournaments/1/stream/"}, False)},
    ),
    "api/players/": (signed_in, {"POST": (ORGANISERS_ONLY, {"name": "Zed"}, False)}),
    "api/players/<int:pk>/": (signed_in, {}),
    # Erasing: staff and the organisers of the player's clubs (tests/privacy); no GET.
    "api/players/<int:pk>/erase/": (
        no_get,
        {"POST": (NOT_THE_CLUB_S, {"confirm": True, "reason": "asked"}, False)},
    ),
    "api/me/data/": (signed_in, {}),  # what is held about the caller (staff: their account)
    "api/me/": (me, {}),
    "api/matches/": (signed_in, {"POST": (ORGANISERS_ONLY, "new_match", False)}),
    "api/matches/<str:match_id>/": (match, {}),
    "api/matches/<str:match_id>/actions/": (
        no_get,
        {"POST": (NOT_THE_MATCH_S, {"type": "pass"}, False)},
    ),
    "api/matches/<str:match_id>/events/": (match, {}),
    "api/matches/<str:match_id>/stream/": (live, {}),
    "api/matches/<str:match_id>/replay/": (match_replay, {}),
    "api/matches/<str:match_id>/verify/": (match, {}),
    "api/matches/<str:match_id>/hands/": (no_get, {"POST": (NOT_THE_MATCH_S, {}, True)}),
    "api/matches/<str:match_id>/rulings/": (
        no_get,
        {"POST": (NOT_THE_MATCH_S | PLAYERS, {}, True)},
    ),
    "api/matches/<str:match_id>/bundle/": (match_bundle, {}),
    "api/matches/<str:match_id>/audit/": (match_bundle, {}),
    "api/matches/<str:match_id>/disputes/": (
        match_audit,
        {"POST": (NOT_THE_MATCH_S, {"statement": "not fair"}, False)},
    ),
    "api/matches/<str:match_id>/disputes/<int:dispute>/comments/": (
        no_get,
        {"POST": (NOT_THE_MATCH_S, {}, True)},
    ),
    "api/matches/<str:match_id>/disputes/<int:dispute>/resolve/": (
        no_get,
        {"POST": (NOT_THE_MATCH_S | PLAYERS, {}, True)},
    ),
    "api/disputes/": (signed_in, {}),
    # Any player may start a practice match against the bot; staff here has no player.
    "api/practice/": (no_get, {"POST": ({"anonymous", "staff"}, {}, False)}),
    "api/tournaments/": (
        everyone(200),
        {"POST": (ORGANISERS_ONLY, {"name": "Mine", "format": "swiss", "rounds": 1}, True)},
    ),
    "api/tournaments/<int:tournament_id>/": (
        tournament,
        {"PATCH": (NOT_THE_TOURNAMENT_S, {"language": "de"}, False)},
    ),
    "api/tournaments/<int:tournament_id>/registrations/": (
        tournament,
        {"POST": (private_only(NOT_THE_MATCH_S), {}, False)},
    ),
    "api/tournaments/<int:tournament_id>/registrations/check-in/": (
        no_get,
        {"POST": (private_only(NOT_THE_MATCH_S), {}, False)},
    ),
    "api/tournaments/<int:tournament_id>/registrations/check-in/undo/": (
        no_get,
        {"POST": (private_only(NOT_THE_MATCH_S), {}, False)},
    ),
    "api/tournaments/<int:tournament_id>/registrations/withdraw/": (
        no_get,
        {"POST": (private_only(NOT_THE_MATCH_S), {}, False)},
    ),
    # Calendar feeds (issue 40): a club's for anyone; a player's behind its secret address.
    "api/clubs/<int:club_id>/calendar.ics": (everyone(200), {}),
    "api/calendar/<str:token>.ics": (everyone(404), {}),  # a wrong secret: 404 to all
    "api/me/calendar/": (me_calendar, {"POST": ({"anonymous"}, {}, False)}),
    # Places, the waitlist, approvals, no-shows, entry rules (issue 40).
    "api/tournaments/<int:tournament_id>/capacity/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {"capacity": 8}, False)},
    ),
    "api/tournaments/<int:tournament_id>/entry-rules/": (
        organisers_read,
        {"PATCH": (NOT_THE_TOURNAMENT_S, {"members_only": True}, False)},
    ),
    "api/tournaments/<int:tournament_id>/registrations/approve/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/registrations/refuse/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/registrations/no-show/undo/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/payments/": (
        organisers_read,
        {"POST": (NOT_THE_TOURNAMENT_S, {"player": 1, "status": "paid"}, True)},
    ),
    # The caller's own notices (issue 40): anyone signed in with a player.
    "api/me/notices/": (me_calendar, {}),
    "api/me/notices/settings/": (me_calendar, {"PUT": ({"anonymous"}, {"opted_out": []}, False)}),
    "api/tournaments/<int:tournament_id>/rounds/": (tournament, {}),
    "api/tournaments/<int:tournament_id>/rounds/start/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, False)},
    ),
    "api/tournaments/<int:tournament_id>/rounds/<int:number>/repair/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/rounds/<int:number>/pairings/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/bracket/": (tournament, {}),
    "api/tournaments/<int:tournament_id>/forbidden-pairs/": (
        tournament_organisers,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/rounds/<int:number>/deadline/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/rounds/<int:number>/clock/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, False)},
    ),
    "api/tournaments/<int:tournament_id>/rounds/<int:number>/rulings/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/results/take/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, False)},
    ),
    "api/tournaments/<int:tournament_id>/pairings/": (tournament, {}),
    "api/tournaments/<int:tournament_id>/standings/": (tournament, {}),
    "api/tournaments/<int:tournament_id>/events/": (tournament, {}),
    "api/tournaments/<int:tournament_id>/stream/": (live, {}),
    "api/tournaments/<int:tournament_id>/standings.csv": (tournament, {}),
    "api/tournaments/<int:tournament_id>/results.csv": (tournament, {}),
    "api/tournaments/<int:tournament_id>/webhooks/": (
        tournament_organisers,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/webhooks/<int:webhook_id>/": (
        tournament_organisers,
        {"DELETE": (NOT_THE_TOURNAMENT_S, {}, False)},
    ),
    "api/tournaments/<int:tournament_id>/webhooks/<int:webhook_id>/deliveries/": (
        tournament_organisers,
        {},
    ),
    "api/tournaments/<int:tournament_id>/webhooks/<int:webhook_id>/redeliver/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {}, True)},
    ),
    "api/tournaments/<int:tournament_id>/webhooks/<int:webhook_id>/deliveries/"
    "<int:delivery_id>/redeliver/": (no_get, {"POST": (NOT_THE_TOURNAMENT_S, {}, True)}),
    "api/clubs/": (everyone(200), {"POST": (ORGANISERS_ONLY, {"name": "New Club"}, False)}),
    "api/clubs/<int:club_id>/": (
        everyone(200),
        {"PATCH": (NOT_THE_CLUB_S, {"name": "Renamed", "rating_settings": {"tau": 1}}, False)},
    ),
    "api/clubs/<int:club_id>/members/": (
        signed_in,
        {"POST": (NOT_THE_CLUB_S, "member", False), "DELETE": (NOT_THE_CLUB_S, "member", False)},
    ),
    "api/clubs/<int:club_id>/ratings/": (everyone(200), {}),
    "api/clubs/<int:club_id>/seasons/": (
        everyone(200),
        {"POST": (NOT_THE_CLUB_S, "new_season", False)},
    ),
    "api/seasons/<int:season_id>/standings/": (everyone(200), {}),
    "api/seasons/<int:season_id>/standings.csv": (everyone(200), {}),
    # Team events (issue 39): their organisers run them; a team's captain sets its lineups.
    "api/team-events/": (
        everyone(200),
        {"POST": (ORGANISERS_ONLY, {"name": "T", "format": "team_swiss"}, False)},
    ),
    "api/team-events/<int:event_id>/": (team_event, {}),
    "api/team-events/<int:event_id>/teams/": (
        team_event,
        {"POST": (NOT_THE_TOURNAMENT_S, {"name": "S", "roster": [1, 2, 3, 4]}, False)},
    ),
    "api/team-events/<int:event_id>/lineups/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {"team": 1, "round": 1, "players": [1, 2]}, False)},
    ),
    "api/team-events/<int:event_id>/rounds/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {"round": 1}, False)},
    ),
    "api/team-events/<int:event_id>/standings/": (team_event, {}),
    "api/team-events/<int:event_id>/matches/": (team_event, {}),
    # A team format's tournament (issue 39). The matrix's tournament is of single players:
    # its team routes are 404 not_a_team_tournament to everyone, and its writes refused;
    # who sees and runs a team tournament's: tests/tournaments/teams/test_tournament_api.py.
    "api/tournaments/<int:tournament_id>/teams/": (
        everyone(404),
        {"POST": (NOT_THE_TOURNAMENT_S, {"name": "S", "roster": [1, 2, 3, 4]}, False)},
    ),
    "api/tournaments/<int:tournament_id>/lineups/": (
        everyone(404),
        {"POST": (NOT_THE_TOURNAMENT_S, {"team": 1, "round": 1, "players": [1, 2]}, False)},
    ),
    "api/tournaments/<int:tournament_id>/team-standings/": (everyone(404), {}),
    "api/tournaments/<int:tournament_id>/teams/stream/": (live, {}),
    "api/team-events/<int:event_id>/stream/": (live, {}),
    "api/tournaments/<int:tournament_id>/team-matches/": (everyone(404), {}),
    "api/tournaments/<int:tournament_id>/team-rounds/": (
        no_get,
        {"POST": (NOT_THE_TOURNAMENT_S, {"round": 1}, False)},
    ),
    # Needs ?club= (400 without it); who sees a history: tests/tournaments/ratings.
    "api/players/<int:pk>/ratings/": (everyone(400), {}),
    "api-auth/login/": (everyone(200), {}),  # DRF's browsable API login (throttled)
    "api-auth/logout/": (everyone(405), {}),
}


def test_every_api_endpoint_has_a_row():
    missing = [route for route in api_routes() if route not in ROWS]
    assert not missing, f"endpoints without a row in the access matrix: {missing}"
    gone = [route for route in ROWS if route not in api_routes()]
    assert not gone, f"rows for endpoints that no longer exist: {gone}"


def written() -> dict[str, int]:
    """Rows of every model of ours (events, read models, registrations, ...)."""
    ours = ("eventstore", "games", "players", "tournaments", "ratings", "teams")
    tables = set(connection.introspection.table_names())
    return {
        m._meta.label: m.objects.count()
        for m in apps.get_models()
        if m._meta.app_label in ours and m._meta.db_table in tables
    }


@pytest.mark.parametrize("is_public", [False, True], ids=["private", "public"])
def test_the_access_matrix_over_every_endpoint(is_public, organiser, make_player):
    pia, quinn = make_player("Pia"), make_player("Quinn")
    tournament_, match_id = tournament_with_a_match(
        organiser=organiser, players=[pia, quinn], is_public=is_public
    )
    clients = role_clients(player=pia, organiser=organiser)
    clients["player2"] = token_client(quinn.user)
    # The organiser's club, with a member and a season; a second club's organiser.
    club = Club.objects.create(name="Home Club", slug="home")
    club.organisers.add(organiser)
    club.members.add(pia)
    Club.objects.create(name="Second Club", slug="second").organisers.add(
        get_user_model().objects.get(username="otherorg")
    )
    season = Season.objects.create(
        club=club, name="Autumn", starts_on="2026-09-01", ends_on="2026-12-31", place_points=[3]
    )
    ids = {"match_id": match_id, "tournament_id": tournament_.pk, "pk": pia.pk, "number": 1,
           "dispute": 1, "webhook_id": 1, "delivery_id": 1, "club_id": club.pk,
           "season_id": season.pk, "token_id": 1,
           "event_id": team_event_create(name="Derby", format="team_swiss", created_by=organiser,
                                         boards=2, is_public=is_public).pk,
           "token": "not-a-secret"}  # fmt: skip
    bodies = {
        "new_match": {"player1": pia.pk, "player2": quinn.pk},
        "member": {"player": quinn.pk},
        "new_season": {
            "name": "Spring",
            "starts_on": "2027-01-01",
            "ends_on": "2027-03-31",
            "place_points": [5, 3],
        },  # fmt: skip
    }
    wrong = []
    for route in api_routes():
        if route not in ROWS:
            continue  # test_every_api_endpoint_has_a_row names it
        policy, writes = ROWS[route]
        path = fill(route, ids)
        for role in ROLES:
            expected = policy(role, is_public)
            status = clients[role].get(path).status_code
            if status not in (expected if isinstance(expected, set) else {expected}):
                wrong.append(("GET", route, role, status, expected))
        for method, (refused, body, checked_first) in writes.items():
            refused = refused(is_public) if callable(refused) else refused
            body = bodies.get(body, body) if isinstance(body, str) else body
            allowed = {401, 403, 404} | ({400} if checked_first else set())
            for role in sorted(refused):
                before = written()
                response = clients[role].generic(
                    method, path, json.dumps(body), content_type="application/json"
                )
                if response.status_code not in allowed:
                    wrong.append((method, route, role, response.status_code, allowed))
                if written() != before:
                    wrong.append((method, route, role, "WROTE", response.status_code))
    assert not wrong, "\n".join(map(str, wrong))
