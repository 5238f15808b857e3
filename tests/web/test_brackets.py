"""The brackets on the pages (public page and wall screen, the desk, the print) are drawn
from the bracket data the API answers; the desk keeps players apart and sets a round's
pairings by hand, with the rematch and forbidden-pair warning to confirm."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.tournaments.helpers import forfeit_round, make_bots, make_tournament
from tournaments import services
from tournaments.models import Pairing
from tournaments.selectors import tournament_bracket

pytestmark = pytest.mark.django_db


@pytest.fixture
def jobs(django_capture_on_commit_callbacks: Any) -> Any:
    """`with jobs(): ...` runs the after-commit work (signals, eager Celery jobs) at exit."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def started(organiser: Any, jobs: Any, n: int, **kwargs: Any) -> Any:
    kwargs.setdefault("rounds", None)
    t = make_tournament(organiser, make_bots(n, prefix=f"B{n}"), **kwargs)
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    t.refresh_from_db()
    return t


def play_to_end(t: Any, organiser: Any, jobs: Any, limit: int = 30) -> None:
    for _ in range(limit):
        t.refresh_from_db()
        if t.status == "finished":
            return
        with jobs():
            forfeit_round(t, organiser)
    raise AssertionError("the tournament did not end")


def drawn_ids(html: str) -> set[str]:
    return set(re.findall(r'data-match="([^"]+)"', html))


def test_a_double_elimination_draws_both_brackets_and_the_grand_final(client, organiser, jobs):
    t = started(organiser, jobs, 6, format="double_elimination")
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    data = tournament_bracket(tournament=t)
    assert data["format"] == "double_elimination"
    assert drawn_ids(page) == {m["id"] for m in data["matches"]}  # one source, every match
    for words in ("Winners&#x27; bracket", "Losers&#x27; bracket", "Grand final"):
        assert words in page
    assert "Winner of W1-" in page or "Loser of W1-" in page  # seats not known yet say whence
    play_to_end(t, organiser, jobs)
    data = tournament_bracket(tournament=t)
    champion = t.registrations.get(player_id=data["champion"]).player.name
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert f"Champion: <bdi>{champion}</bdi>" in page
    assert page.count(' class="bracket-side won"') >= 6  # every decided match marks its winner


def test_a_knockout_draws_its_rounds_to_come_and_the_byes(client, organiser, jobs):
    t = started(organiser, jobs, 5, format="knockout")
    data = tournament_bracket(tournament=t)
    assert data["format"] == "knockout"
    ids = [m["id"] for m in data["matches"]]
    assert ids == ["K1-1", "K1-2", "K1-3", "K1-4", "K2-1", "K2-2", "K3-1"]
    statuses = [m["status"] for m in data["matches"][:4]]
    assert statuses.count("bye") == 3 and statuses.count("ready") == 1  # byes to the top seeds
    first = data["matches"][0]
    assert first["seeds"] == [1, None] and first["winner_to"] == {"match": "K2-1", "side": 0}
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert drawn_ids(page) == set(ids)
    assert "Semifinals" in page and "Final" in page
    play_to_end(t, organiser, jobs)
    data = tournament_bracket(tournament=t)
    final = Pairing.objects.get(round__tournament=t, round__number=3)
    assert data["champion"] == final.winner_id == data["matches"][-1]["winner"]
    assert all(m["status"] in ("played", "bye") for m in data["matches"])


def test_a_top_cut_draws_its_knockout_once_the_cut_is_made(client, organiser, jobs):
    t = started(organiser, jobs, 6, rounds=2, top_cut=4, third_place=True)
    assert tournament_bracket(tournament=t)["matches"] == []
    assert 'class="brackets"' not in client.get(f"/tournaments/{t.pk}/").content.decode()
    for _ in range(2):
        with jobs():
            forfeit_round(t, organiser)
    data = tournament_bracket(tournament=t)
    assert data["format"] == "top_cut" and data["first_round"] == 3
    assert [m["id"] for m in data["matches"]] == ["K1-1", "K1-2", "K2-1", "3P"]
    semis = Pairing.objects.filter(round__tournament=t, round__number=3).order_by("table")
    assert [m["players"] for m in data["matches"][:2]] == [
        [p.player1_id, p.player2_id] for p in semis
    ]
    play_to_end(t, organiser, jobs)
    data = tournament_bracket(tournament=t)
    third = Pairing.objects.get(round__tournament=t, round__number=4, table=2)
    assert data["matches"][-1]["players"] == [third.player1_id, third.player2_id]
    assert data["matches"][-1]["winner"] == third.winner_id
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "Third place" in page and "Champion:" in page


def test_the_desk_prints_the_bracket_and_shows_it(client, organiser, jobs):
    t = started(organiser, jobs, 4, format="double_elimination")
    client.force_login(organiser)
    printed = client.get(f"/desk/{t.pk}/bracket/")
    assert printed.status_code == 200
    assert drawn_ids(printed.content.decode()) == {
        m["id"] for m in tournament_bracket(tournament=t)["matches"]
    }
    assert "size: landscape" in printed.content.decode()
    desk = client.get(f"/desk/{t.pk}/").content.decode()
    assert 'class="brackets"' in desk and f"/desk/{t.pk}/bracket/" in desk
    swiss = started(organiser, jobs, 4, rounds=2)
    assert client.get(f"/desk/{swiss.pk}/bracket/").status_code == 404
    client.logout()
    assert client.get(f"/desk/{t.pk}/bracket/").status_code == 302  # to the sign-in


def test_the_desk_keeps_two_players_apart_and_lets_them_meet_again(client, organiser):
    players = make_bots(4, prefix="Fam")
    t = make_tournament(organiser, players, rounds=2)
    client.force_login(organiser)
    url = f"/desk/{t.pk}/pairs-apart/"
    assert "No pair is kept apart." in client.get(url).content.decode()
    a, b = players[0].pk, players[1].pk
    same = client.post(url, {"first": a, "second": a, "reason": "oops"})
    assert same.status_code == 400 and "Choose two different players." in same.content.decode()
    stranger = client.post(url, {"first": a, "second": 999_999})
    assert stranger.status_code == 400
    # nothing written by the refusals:
    assert client.get(url).content.decode().count("They may meet") == 0
    assert client.post(url, {"first": a, "second": b, "reason": "siblings"}).status_code == 302
    page = client.get(url).content.decode()
    assert "They may meet" in page and players[0].name in page and players[1].name in page
    assert "Players kept apart (1)" in client.get(f"/desk/{t.pk}/").content.decode()
    removed = client.post(f"{url}remove/", {"first": a, "second": b})
    assert removed.status_code == 302
    assert "No pair is kept apart." in client.get(url).content.decode()
    assert client.post(f"{url}remove/", {"first": "x"}).status_code == 400
    robin = make_tournament(organiser, make_bots(3, prefix="RR"), format="round_robin", rounds=None)
    page = client.get(f"/desk/{robin.pk}/pairs-apart/").content.decode()
    assert "everyone meets everyone" in page and "Keep apart" not in page


def _tables(page: str) -> dict[str, str]:
    """The hand-pairing form's fields as sent: a1, b1, ... from the selected options."""
    fields = {}
    for name, body in re.findall(r'<select id="[ab]\d+" name="([ab]\d+)">(.*?)</select>', page):
        chosen = re.search(r'<option value="(\d*)" selected>', body)
        fields[name] = chosen.group(1) if chosen else ""
    fields["tables"] = re.search(r'name="tables" value="(\d+)"', page).group(1)
    fields["version"] = re.search(r'name="version" value="(\d+)"', page).group(1)
    return fields


def test_the_desk_sets_a_round_by_hand_with_the_rematch_warning_to_confirm(client, organiser, jobs):
    t = started(organiser, jobs, 4, rounds=3)
    client.force_login(organiser)
    with jobs():
        forfeit_round(t, organiser)
    t.refresh_from_db()
    assert t.current_round == 2
    url = f"/desk/{t.pk}/rounds/2/by-hand/"
    assert f'href="{url}"' in client.get(f"/desk/{t.pk}/rounds/2/").content.decode()
    fields = _tables(client.get(url).content.decode())
    # Round 1's first table again: a rematch, refused with the warning, nothing written.
    r1 = Pairing.objects.get(round__tournament=t, round__number=1, table=1)
    r1b = Pairing.objects.get(round__tournament=t, round__number=1, table=2)
    fields |= {"a1": r1.player1_id, "b1": r1.player2_id, "a2": r1b.player1_id,
               "b2": r1b.player2_id, "reason": "the club asked"}  # fmt: skip
    before = list(Pairing.objects.filter(round__tournament=t, round__number=2).values_list(
        "player1_id", "player2_id"))  # fmt: skip
    warned = client.post(url, fields | {"confirm": "0"})
    assert warned.status_code == 409
    text = warned.content.decode()
    assert "have met already" in text and 'id="confirm-pairings"' in text
    assert r1.player1.name in text
    after = Pairing.objects.filter(round__tournament=t, round__number=2)
    assert list(after.values_list("player1_id", "player2_id")) == before
    kept = client.post(url, _tables(text) | {"reason": "the club asked", "confirm": "1"})
    assert kept.status_code == 302
    now = Pairing.objects.filter(round__tournament=t, round__number=2).order_by("table")
    assert [(p.player1_id, p.player2_id) for p in now][:2] == [
        (r1.player1_id, r1.player2_id), (r1b.player1_id, r1b.player2_id)]  # fmt: skip
    assert "pairings set by hand" in client.get(f"/tournaments/{t.pk}/").content.decode()
    assert "pairings set by hand" in client.get(f"/desk/{t.pk}/rounds/2/").content.decode()
    log = client.get(f"/api/tournaments/{t.pk}/events/").json()
    repaired = [e for e in log["results"] if e["type"] == "RoundRepaired"][-1]
    assert repaired["data"]["by_hand"] is True and repaired["data"]["confirmed"]


def test_hand_pairings_at_the_desk_refuse_bad_tables_and_write_nothing(client, organiser, jobs):
    t = started(organiser, jobs, 4, rounds=2)
    client.force_login(organiser)
    url = f"/desk/{t.pk}/rounds/1/by-hand/"
    fields = _tables(client.get(url).content.decode())
    before = t.version
    missing = client.post(url, fields | {"b2": "", "reason": "swap"})
    assert missing.status_code == 400 and 'id="pairing-error"' in missing.content.decode()
    junk = client.post(url, fields | {"a1": "not a player", "reason": "swap"})
    assert junk.status_code == 400
    no_reason = client.post(url, fields | {"reason": " "})
    assert no_reason.status_code == 400
    t.refresh_from_db()
    assert t.version == before
    swapped = fields | {"b1": fields["b2"], "b2": fields["b1"], "reason": "swap"}
    assert client.post(url, swapped).status_code == 302
    de = started(organiser, jobs, 4, format="double_elimination")
    page = client.get(f"/desk/{de.pk}/rounds/1/by-hand/").content.decode()
    assert "cannot be set by hand" in page and "<select" not in page


def test_the_desk_round_names_the_pairs_it_could_not_keep_apart(client, organiser, jobs):
    players = make_bots(4, prefix="Home")
    t = make_tournament(organiser, players, rounds=2)
    client.force_login(organiser)
    a = players[0]
    for other in players[1:]:  # a is kept apart from everyone: one pair must meet
        response = client.post(f"/desk/{t.pk}/pairs-apart/", {"first": a.pk, "second": other.pk})
        assert response.status_code == 302
    with jobs():
        services.tournament_start(tournament_id=t.pk, by=organiser)
    tables = Pairing.objects.filter(round__tournament=t, round__number=1)
    table = next(p for p in tables if a.pk in (p.player1_id, p.player2_id))
    page = client.get(f"/desk/{t.pk}/rounds/1/").content.decode()
    assert 'id="forbidden-met"' in page and page.count("could keep") == 1
    other = (table.player2 if table.player1_id == a.pk else table.player1).name
    assert f"<bdi>{a.name}</bdi> and <bdi>{other}</bdi>" in page or (
        f"<bdi>{other}</bdi> and <bdi>{a.name}</bdi>" in page
    )


def test_hand_pairings_warn_of_a_pair_kept_apart(client, organiser, jobs):
    t = started(organiser, jobs, 4, rounds=2)
    client.force_login(organiser)
    url = f"/desk/{t.pk}/rounds/1/by-hand/"
    fields = _tables(client.get(url).content.decode())
    a, b = int(fields["a1"]), int(fields["b1"])
    services.tournament_forbidden_pair_add(tournament_id=t.pk, players=[a, b], by=organiser)
    warned = client.post(url, _tables(client.get(url).content.decode()) | {"reason": "check"})
    assert warned.status_code == 409
    assert "are kept apart" in warned.content.decode()
