"""Matches whose deals an organiser chose (a seed or decks) are marked in the audit bundle, the
replay data and the admin; a tournament never makes one."""

import ast
import re
from pathlib import Path

import pytest

from demo.bots import match_play_bots
from games.audit import match_bundle, match_replay_data
from games.models import MatchDealPlan
from games.selectors import match_has_preset_deals
from games.services import match_create
from tests.factories import UserFactory
from tests.games.audit.helpers import SHORT, finished_match, tournament_match

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _finished_at_random(alice, bob):
    match = match_create(player1=alice, player2=bob, ruleset=SHORT)
    return match_play_bots(match_id=match.id, bots_only=False)


def test_the_bundle_and_the_replay_data_say_whether_the_deals_were_chosen(alice, bob):
    seeded, random = finished_match(alice, bob), _finished_at_random(alice, bob)
    assert match_bundle(match=seeded, user=None)["preset_deals"] is True
    assert match_bundle(match=random, user=alice.user)["preset_deals"] is False
    assert match_replay_data(match=seeded, user=alice.user)["preset_deals"] is True
    assert match_replay_data(match=random, user=bob.user)["preset_deals"] is False


def test_the_admin_marks_chosen_deals_in_the_list_and_on_the_match(client, alice, bob):
    seeded = match_create(player1=alice, player2=bob, seed="admin")
    random = match_create(player1=alice, player2=bob)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    listing = client.get("/admin/games/match/").content.decode()
    assert "deals chosen by the organiser" in listing.lower()
    assert "column-deals_chosen" in listing
    rows = {str(m.pk): _row(listing, m.pk) for m in (seeded, random)}
    assert 'alt="True"' in rows[str(seeded.pk)] and 'alt="False"' in rows[str(random.pk)]
    # Sorted by the column (its header's link), the seeded match first.
    header = listing[listing.index("column-deals_chosen") :]
    order = re.search(r'href="\?o=(\d+)', header).group(1)
    by_mark = client.get("/admin/games/match/", {"o": f"-{order}"}).content.decode()
    assert by_mark.index(str(seeded.pk)) < by_mark.index(str(random.pk))
    for match, shown in ((seeded, "True"), (random, "False")):
        page = client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
        assert "deals chosen by the organiser" in page.lower()
        assert f'alt="{shown}"' in page


def test_the_home_page_marks_chosen_deals_in_its_match_list(client, alice, bob):
    seeded = match_create(player1=alice, player2=bob, seed="home")
    random = match_create(player1=alice, player2=bob)
    client.force_login(alice.user)
    page = client.get("/").content.decode()
    rows = {
        m: page[page.index(f"/matches/{m.pk}/") :].split("</tr>", 1)[0] for m in (seeded, random)
    }
    assert "chosen deals" in rows[seeded] and "chosen deals" not in rows[random]


def _row(listing: str, pk) -> str:
    """The list's row of match `pk` (from its change link to the end of the row)."""
    start = listing.index(f"/admin/games/match/{pk}/change/")
    return listing[start : listing.index("</tr>", start)]


def test_a_tournament_match_never_has_chosen_deals(organiser, alice, bob):
    _, match = tournament_match(organiser, [alice, bob])
    assert not MatchDealPlan.objects.filter(match_id=match.pk).exists()
    assert match_has_preset_deals(match=match) is False


def test_tournaments_create_matches_without_a_seed_or_decks():
    """The one way a tournament gets a match is `match_create(_in_tx)`; no call in the
    tournaments app passes a seed, decks or a **mapping that could carry them."""
    calls = []
    for path in (ROOT / "tournaments").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Call) and _name(node.func) in {
                "match_create", "match_create_in_tx",
            }:  # fmt: skip
                calls.append(str(path.relative_to(ROOT)))
                keywords = {k.arg for k in node.keywords}
                assert None not in keywords, f"{path}: **kwargs to match_create"
                assert not keywords & {"seed", "decks"}, f"{path}: chosen deals"
                assert len(node.args) == 0, f"{path}: positional arguments"
    # a round's pairing, a team round's boards (issue 39)
    assert sorted(calls) == ["tournaments/services/rounds.py", "tournaments/teams/services.py"]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""
