"""The demo commands run whole tournaments with bots through the services."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import Pairing, Tournament


@pytest.mark.django_db(transaction=True)
def test_simulate_tournament_plays_every_round_and_prints_standings():
    out = StringIO()
    call_command(
        "simulate_tournament", "--players", "4", "--format", "swiss", "--rounds", "2",
        "--game-target", "25", "--ruleset", '{"end_when_decided": true}', "--no-progress",
        stdout=out,
    )  # fmt: skip
    t = Tournament.objects.get()
    assert t.status == Tournament.Status.FINISHED and t.current_round == 2
    played = Pairing.objects.filter(round__tournament=t, match__status="finished").count()
    assert played == 4
    text = out.getvalue()
    assert "2 rounds" in text
    ranks = [line.split()[0] for line in text.splitlines()[-4:]]
    assert ranks == ["1", "2", "3", "4"]


@pytest.mark.django_db(transaction=True)
def test_load_demo_creates_a_played_tournament_once(monkeypatch):
    from demo.management.commands import load_demo

    monkeypatch.setattr(load_demo, "DEMO_PLAYERS", 2)
    monkeypatch.setattr(load_demo, "DEMO_ROUNDS", 1)
    monkeypatch.setattr(load_demo, "DEMO_GAME_TARGET", 25)
    monkeypatch.setattr(load_demo, "DEMO_EVENINGS", 1)
    monkeypatch.setattr(load_demo, "DEMO_EVENING_ROUNDS", 1)
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=out)
    t = Tournament.objects.get(name=load_demo.DEMO_TOURNAMENT)
    assert t.status == Tournament.Status.FINISHED
    assert "Demo tournament id" in out.getvalue() and "already there" in out.getvalue()
    assert t.organisers.filter(username="organiser").exists()
    # Two demo logins with one match in progress between them, created once.
    from games.models import Match

    paired = Pairing.objects.filter(match__isnull=False).values("match_id")
    demo = Match.objects.filter(
        player1__user__username="alice", player2__user__username="bob"
    ).exclude(pk__in=paired)
    assert demo.count() == 1
    assert demo.get().status == Match.Status.IN_PROGRESS
    assert "'alice' and 'bob'" in out.getvalue()
    # The demo club: its evening finished and rated, a season, made once.
    from tournaments.ratings.models import ClubRating, SeasonStanding

    evening = Tournament.objects.get(club__slug=load_demo.DEMO_CLUB_SLUG)
    assert evening.status == Tournament.Status.FINISHED
    assert ClubRating.objects.filter(club__slug=load_demo.DEMO_CLUB_SLUG).count() == 6
    assert SeasonStanding.objects.filter(season__club__slug=load_demo.DEMO_CLUB_SLUG).count() == 6
    assert "Demo club already there" in out.getvalue()


@pytest.mark.django_db
def test_load_demo_links_use_the_port_make_run_passes(monkeypatch):
    """`make run PORT=8123` passes HOST and PORT on: the printed links are where it serves."""
    monkeypatch.setenv("HOST", "0.0.0.0")  # noqa: S104 - a listening address
    monkeypatch.setenv("PORT", "8123")
    out = StringIO()
    call_command("load_demo", "--no-tournament", stdout=out)
    assert "admin at http://127.0.0.1:8123/admin/" in out.getvalue()
    assert ":8000" not in out.getvalue()
    monkeypatch.delenv("HOST")
    monkeypatch.delenv("PORT")
    out = StringIO()
    call_command("load_demo", "--no-tournament", stdout=out)
    assert "admin at http://127.0.0.1:8000/admin/" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_load_demo_ends_with_the_pages_to_open_and_each_answers(monkeypatch, client):
    """The last lines are where a person starts (the pages, not the API), and each page
    answers: signed out the home page, the public tournament and the replay; the desk once
    signed in as the demo organiser."""
    from demo.management.commands import load_demo

    monkeypatch.setattr(load_demo, "DEMO_PLAYERS", 2)
    monkeypatch.setattr(load_demo, "DEMO_ROUNDS", 1)
    monkeypatch.setattr(load_demo, "DEMO_GAME_TARGET", 25)
    monkeypatch.setattr(load_demo, "DEMO_EVENINGS", 1)
    monkeypatch.setattr(load_demo, "DEMO_EVENING_ROUNDS", 1)
    out = StringIO()
    call_command("load_demo", stdout=out)
    tail = out.getvalue().split("Open in a browser:", 1)[1]
    paths = re.findall(r"http://127\.0\.0\.1:8000(/\S*)", tail)
    tournament = Tournament.objects.get(name=load_demo.DEMO_TOURNAMENT)
    assert paths[:3] == ["/", f"/tournaments/{tournament.pk}/", f"/desk/{tournament.pk}/"]
    assert paths[3].startswith("/matches/") and paths[3].endswith("/replay/")
    assert paths[4] == "/clubs/demo-club/" and paths[5].startswith("/players/")
    assert paths[6] == "/api/docs/" and paths[7] == "/docs/"
    for path in paths:
        if path == "/docs/":
            continue  # the built manual: served from make install's build (tests/docs)
        if path.startswith("/desk/"):
            assert client.get(path).status_code == 302  # to the desk's sign-in
            client.login(username="organiser", password=load_demo.DEMO_PASSWORD)
        assert client.get(path).status_code == 200, path
        client.logout()


def _rebuilt_identically(t: Tournament) -> None:
    from tournaments.projections import projected_rows, rows_differences, tournament_rebuild_in_tx

    before = projected_rows(tournament=t)
    tournament_rebuild_in_tx(tournament=t)
    assert rows_differences(before, projected_rows(tournament=t)) == []


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_simulate_a_double_elimination_to_its_champion_and_rebuild_it():
    from tournaments.selectors import tournament_bracket

    out = StringIO()
    call_command(
        "simulate_tournament", "--players", "6", "--format", "double_elimination",
        "--game-target", "25", "--ruleset", '{"end_when_decided": true}', "--no-progress",
        stdout=out,
    )  # fmt: skip
    t = Tournament.objects.get()
    assert t.status == Tournament.Status.FINISHED
    bracket = tournament_bracket(tournament=t)
    assert bracket["format"] == "double_elimination" and bracket["champion"] is not None
    # Everyone but the champion lost twice, or once in the grand final without a reset.
    losses: dict[int, int] = {}
    for m in bracket["matches"]:
        if m["loser"] is not None:
            losses[m["loser"]] = losses.get(m["loser"], 0) + 1
    assert bracket["champion"] not in losses or losses[bracket["champion"]] == 1
    assert sum(1 for p, n in losses.items() if p != bracket["champion"] and n >= 1) == 5
    # The final standing follows the bracket: the champion, the grand final's loser, then
    # the bracket's places in order.
    grand_final = [m for m in bracket["matches"] if m["bracket"] == "GF" and m["loser"]]
    ranked = list(t.standings.order_by("rank").values_list("player_id", flat=True))
    assert ranked[:2] == [bracket["champion"], grand_final[-1]["loser"]]
    group = {p: i for i, members in enumerate(bracket["places"]) for p in members}
    assert [group[p] for p in ranked] == sorted(group[p] for p in ranked)
    assert f"{t.current_round} rounds" in out.getvalue()
    _rebuilt_identically(t)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_simulate_a_swiss_with_a_top_cut_of_8_and_rebuild_it():
    from tournaments.selectors import tournament_bracket

    out = StringIO()
    call_command(
        "simulate_tournament", "--players", "10", "--format", "swiss", "--rounds", "3",
        "--top-cut", "8", "--third-place", "--game-target", "25",
        "--ruleset", '{"end_when_decided": true}', "--no-progress", stdout=out,
    )  # fmt: skip
    t = Tournament.objects.get()
    assert t.status == Tournament.Status.FINISHED and t.current_round == 3 + 3
    assert "top 8" in t.name
    bracket = tournament_bracket(tournament=t)
    assert bracket["format"] == "top_cut" and bracket["first_round"] == 4
    assert [m["id"] for m in bracket["matches"]][-2:] == ["K3-1", "3P"]
    final = Pairing.objects.get(round__tournament=t, round__number=6, table=1)
    assert bracket["champion"] == final.winner_id == t.standings.get(rank=1).player_id
    ranks = [line.split()[0] for line in out.getvalue().splitlines()[-10:]]
    # The knockout's places (the quarterfinal losers share fifth), then the Swiss order.
    assert ranks == ["1", "2", "3", "4", "5", "5", "5", "5", "9", "10"]
    _rebuilt_identically(t)


@pytest.mark.django_db
def test_simulate_tournament_refuses_a_top_cut_it_cannot_play():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="follows a Swiss"):
        call_command("simulate_tournament", "--format", "knockout", "--top-cut", "4")
    with pytest.raises(CommandError, match="larger than the field"):
        call_command("simulate_tournament", "--players", "6", "--top-cut", "8")
    assert not Tournament.objects.exists()
