"""Issue 32 item 8: an edited export (a row taken out, so that the tournament pointed at
this install's club, or a registration at one of its players) was imported, attached to
what was here. An import never links a tournament to an existing club, player or account
unless the operator names the club (`--link-club`), and then says what it linked."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from players.models import Club, Player
from tests.tournaments.helpers import make_bots, table_tournament
from tournaments.models import Tournament
from tournaments.selectors.exports import tournament_export
from tournaments.services.imports import TournamentImportError, tournament_import

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def export(organiser, django_capture_on_commit_callbacks):
    """A club's small tournament exported, then the database emptied: (lines, club id,
    one player's id)."""
    club = Club.objects.create(name="Exported club", slug="exported")
    club.organisers.add(organiser)
    bots = make_bots(2)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = table_tournament(organiser, bots, rounds=1, club=club)
    out = io.StringIO()
    tournament_export(tournament_id=tournament.pk, out=out)
    call_command("flush", interactive=False, verbosity=0)
    return out.getvalue().splitlines(), club.pk, bots[0].pk


def without(lines: list[str], model: str, pk: int) -> list[str]:
    header = json.loads(lines[0])
    header["rows"] = [r for r in header["rows"] if (r["model"], r["pk"]) != (model, pk)]
    return [json.dumps(header), *lines[1:]]


def refused(lines: list[str], **kwargs) -> TournamentImportError:
    with pytest.raises(TournamentImportError) as caught:
        tournament_import(lines=lines, **kwargs)
    assert not Tournament.objects.exists(), "a refused import wrote something"
    return caught.value


def test_a_tournament_is_not_attached_to_a_club_already_here(export, tmp_path):
    lines, club_id, _ = export
    here = Club.objects.create(pk=club_id, name="The importer's club", slug="ours")
    edited = without(lines, "players.club", club_id)
    error = refused(edited)
    assert error.code == "not_in_file" and "players.club" in error.message
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(edited) + "\n")
    with pytest.raises(CommandError, match="not_in_file"):
        call_command("import_tournament", str(path), "--no-progress")
    assert not Tournament.objects.exists()
    # Named by the operator, the club is linked, and the import says so.
    out = io.StringIO()
    link = f"--link-club={here.pk}"
    call_command("import_tournament", str(path), "--no-progress", link, stdout=out)
    assert Tournament.objects.get().club_id == here.pk
    assert "LINKED tournaments.tournament" in out.getvalue()
    assert f"-> club {here.pk} (The importer's club)" in out.getvalue()


def test_a_registration_is_not_attached_to_a_player_already_here(export):
    lines, _, player_id = export
    Player.objects.create(pk=player_id, name="Someone here")
    error = refused(without(lines, "players.player", player_id))
    assert error.code == "not_in_file" and "players.player" in error.message


def test_the_link_flag_names_a_club_that_is_here(export):
    lines, club_id, _ = export
    error = refused(without(lines, "players.club", club_id), link_club=club_id)
    assert error.code == "club_not_found"
