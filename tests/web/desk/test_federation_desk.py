"""The desk's federation pages (issue 39): a member list uploaded and its report (matched,
new, conflicts, each linked to its players), kept or only shown; the monthly rating
reports; the player page with both lists; the standings' federation ids."""

from __future__ import annotations

import base64
import csv
import io
import random
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from rest_framework.test import APIClient

from demo.club_history import club_evening_generate
from players.models import Club
from players.services import player_create
from tournaments.federation.models import FederationRatingMonth, Member
from tournaments.federation.services import federation_get_or_create
from tournaments.ratings.services import club_ratings_sync

pytestmark = pytest.mark.django_db


@pytest.fixture
def federation(td):
    north = Club.objects.create(name="North", slug="north")
    Club.objects.create(name="South", slug="south")
    north.organisers.add(td)
    federation = federation_get_or_create(name="Gin Federation", club_slugs=["north", "south"])
    for name in ("Ana Pop", "Ion Rus", "Ion Rus", "Maria Ionescu"):
        north.members.add(player_create(name=name))
    return federation


def member_file(*rows: list[str]) -> SimpleUploadedFile:
    out = io.StringIO()
    csv.writer(out).writerows([["federation_id", "name", "club"], *rows])
    return SimpleUploadedFile("members.csv", out.getvalue().encode(), content_type="text/csv")


ROWS = (["RO-1", "ANA POP", "North"], ["RO-2", "Ion Rus", "North"],
        ["RO-3", "Maria Ionesku", "North"], ["RO-4", "Dan Nou", "North"],
        ["RO-5", "Eva Alta", "Elsewhere"])  # fmt: skip


def test_the_report_links_what_matched_and_what_conflicts(client, td, federation) -> None:
    url = f"/desk/federations/{federation.pk}/members/"
    dry = client.post(url, {"file": member_file(*ROWS), "dry_run": "on"})
    assert dry.status_code == 200
    assert "1 matched, 1 new, 3 conflicts" in dry.content.decode()
    assert not Member.objects.exists()  # a dry run keeps nothing
    page = client.post(url, {"file": member_file(*ROWS)}).content.decode()
    assert 'id="member-report"' in page and "1 matched, 1 new, 3 conflicts" in page
    ana = Member.objects.get(number="RO-1").player
    assert f'href="/players/{ana.pk}/"' in page  # matched, linked
    assert "several players of that name" in page and "only a similar name" in page
    assert "the club is not in the federation" in page
    maria = Member.objects.get(number="RO-3")
    assert maria.player is None  # a conflict links nobody: a person decides
    assert Member.objects.count() == 5
    bad = client.post(url, {"file": SimpleUploadedFile("x.csv", b"name\nA\n")})
    assert bad.status_code == 400 and "federation_id" in bad.content.decode()
    home = client.get("/desk/").content.decode()
    assert url in home


def test_only_its_clubs_organisers_see_the_list(client, federation) -> None:
    from tests.web.desk.helpers import organiser

    client.force_login(organiser("other"))
    assert client.get(f"/desk/federations/{federation.pk}/members/").status_code == 403
    assert client.get("/desk/federations/999999/members/").status_code == 404


def test_the_api_imports_and_lists_members(td, federation) -> None:
    api = APIClient()
    url = f"/api/federations/{federation.pk}/members/"
    assert api.get(url).status_code == 401
    api.force_authenticate(td)
    content = base64.b64encode(member_file(*ROWS).read()).decode()
    response = api.post(url + "import/", {"filename": "m.csv", "content_base64": content},
                        format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["counts"] == {"matched": 1, "new": 1, "conflicts": 3}
    assert {c["reason"] for c in body["conflicts"]} == {"ambiguous", "similar", "unknown_club"}
    listed = api.get(url).json()["results"]
    assert [m["federation_id"] for m in listed] == ["RO-1", "RO-2", "RO-3", "RO-4", "RO-5"]
    junk = base64.b64encode(b"junk").decode()
    bad = api.post(url + "import/", {"filename": "x.xlsx", "content_base64": junk},
                   format="json")  # fmt: skip
    assert bad.status_code == 400 and bad.json()["error"]["reason"] == "member_file"


@pytest.fixture
def rated(federation):
    """Two finished evenings of North rated (the club's job, which re-rates the federation)."""
    north = Club.objects.get(slug="north")
    players = list(north.members.order_by("pk")) + [player_create(name=f"X{i}") for i in range(4)]
    for player in players:
        north.members.add(player)
    rng = random.Random(3)
    for n in range(2):
        tournament, _ = club_evening_generate(club=north, players=players, rounds=3, rng=rng,
                                              name=f"Evening {n}")  # fmt: skip
        club_ratings_sync(tournament_id=tournament.pk)
    Member.objects.create(federation=federation, number="RO-0007", name="Ana Pop",
                          player=players[0])  # fmt: skip
    return players


def test_the_player_page_shows_both_lists_and_the_federation_id(client, federation, rated):
    page = client.get(f"/players/{rated[0].pk}/").content.decode()
    assert "RO-0007" in page
    assert 'class="card club-rating"' in page and 'class="card federation-rating"' in page
    assert "Gin Federation" in page and "Month by month" in page
    persian = client.get(f"/players/{rated[0].pk}/", HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    assert 'dir="rtl"' in persian and "۲" in persian


def test_the_monthly_reports(client, td, federation, rated) -> None:
    month = FederationRatingMonth.objects.filter(federation=federation).first().month
    page = client.get(f"/desk/federations/{federation.pk}/reports/").content.decode()
    csv_url = f"/api/federations/{federation.pk}/reports/{month}.csv"
    assert csv_url in page
    rows = list(csv.reader(io.StringIO(APIClient().get(csv_url).content.decode())))
    assert rows[0][:3] == ["rank", "federation_id", "player"]
    assert len(rows) == 1 + len(rated)
    assert ["RO-0007", str(rated[0].pk)] == rows[[r[2] for r in rows].index(str(rated[0].pk))][1:3]
    hgx = APIClient().get(f"/api/federations/{federation.pk}/reports/{month}.hgxr")
    lines = hgx.content.decode().splitlines()
    assert lines[:3] == ["HGXR 1", "012 Gin Federation", f"082 {month}"]
    assert len([x for x in lines if x.startswith("003")]) == len(rated)
    assert APIClient().get(f"/api/federations/{federation.pk}/reports/2026-13.csv").status_code \
        == 400  # fmt: skip
    out = io.StringIO()
    call_command("federation_report", "--federation", "Gin Federation", stdout=out)
    assert out.getvalue() == APIClient().get(csv_url).content.decode()  # the latest month
    out = io.StringIO()
    call_command("federation_report", "--federation", "Gin Federation", "--month", month, "--hgx",
                 stdout=out)  # fmt: skip
    assert out.getvalue() == hgx.content.decode()
    ratings = APIClient().get(f"/api/federations/{federation.pk}/ratings/").json()["results"]
    assert [r["rank"] for r in ratings] == list(range(1, len(rated) + 1))


def test_the_standings_export_carries_federation_ids(client, td) -> None:
    from tests.web.desk.helpers import started

    tournament = started(td, players=4)
    federation = federation_get_or_create(name="F", club_slugs=[])
    player = tournament.registrations.order_by("pk").first().player
    Member.objects.create(federation=federation, number="DE-99", name="x", player=player)
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(f"/desk/{tournament.pk}/standings.csv").content.decode("utf-8-sig")
            )
        )
    )
    assert rows[0][-1] == "Federation id"
    assert "DE-99" in [r[-1] for r in rows[1:]]


def test_the_player_pages_months_and_chart_dates_are_in_the_readers_words(client, rated):
    """Issue 37 (item 6) on the player page: its months ("2026-12") and its charts' dates
    ("2026-12-02") were ISO on every page, in Persian with Persian digits."""
    from babel.dates import format_date
    from django.utils import timezone

    today = timezone.now().date()
    page = client.get(f"/players/{rated[0].pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert format_date(today.replace(day=1), "LLLL y", locale="de") in page  # "Dezember 2026"
    assert today.strftime("%Y-%m") not in re.sub(r'(href|data-[a-z-]+|id)="[^"]*"', "", page)
