"""An import refuses, writing nothing, a file that is not an export, one cut short or
altered, and one whose tournament (or anything it holds) is already in the database."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

import eventstore
from players.models import Player
from tests.tournaments.exports.helpers import played_tournament
from tournaments.models import Tournament
from tournaments.selectors.exports import tournament_export
from tournaments.services.imports import TournamentImportError, tournament_import

pytestmark = pytest.mark.django_db(transaction=True)


def nothing_here() -> bool:
    return (
        not Tournament.objects.exists()
        and not Player.objects.exists()
        and not get_user_model().objects.exists()
        and eventstore.read_all(after_position=0, limit=1) == []
    )


def refused(lines: list[str]) -> str:
    with pytest.raises(TournamentImportError) as caught:
        tournament_import(lines=lines)
    assert nothing_here(), "a refused import wrote something"
    return caught.value.code


def test_a_bad_file_is_refused_and_nothing_is_written(organiser, jobs):
    tournament = played_tournament(organiser, jobs)
    out = io.StringIO()
    tournament_export(tournament_id=tournament.pk, out=out)
    good = out.getvalue().splitlines()
    call_command("flush", interactive=False, verbosity=0)
    assert nothing_here()

    # An event altered (a hand's points): its hash no longer comes out the same.
    altered = list(good)
    n = next(i for i, line in enumerate(altered) if '"type":"HandScored"' in line)
    event = json.loads(altered[n])
    event["data"]["points"] = event["data"].get("points", 0) + 1
    altered[n] = json.dumps(event)
    assert refused(altered) == "hash_mismatch"
    # The metadata (who entered it) is covered too.
    altered = list(good)
    event = json.loads(altered[n])
    event["metadata"]["actor"] = "someone else"
    altered[n] = json.dumps(event)
    assert refused(altered) == "hash_mismatch"
    # Cut short: the end line, or the last events, missing.
    assert refused(good[:-1]) == "truncated"
    assert refused(good[:-3] + [json.dumps({"kind": "end", "events": len(good) - 4})]) == (
        "truncated"
    )
    # An event left out in the middle of a stream.
    gap = [line for i, line in enumerate(good) if i != n]
    gap[-1] = json.dumps({"kind": "end", "events": len(gap) - 2})
    assert refused(gap) == "bad_sequence"
    # An event for a stream the header does not name (which could already exist here).
    stray = json.loads(good[1]) | {"stream_id": "match-00000000-0000-0000-0000-000000000000"}
    assert refused([good[0], json.dumps(stray), *good[1:]]) == "bad_event"
    # Not an export at all.
    assert refused(["not json"]) == "bad_line"
    assert refused([json.dumps({"kind": "header", "format": "something else"})]) == "bad_format"
    header = json.loads(good[0]) | {"version": 99}
    assert refused([json.dumps(header), *good[1:]]) == "bad_format"
    header = json.loads(good[0])
    header["rows"].append({"model": "auth.group", "pk": 1, "fields": {"name": "admins"}})
    assert refused([json.dumps(header), *good[1:]]) == "bad_format"
    assert refused([]) == "truncated"

    # The good file imports; a second import of it is refused (409), leaving the first.
    assert tournament_import(lines=good).standings_match
    events = len(eventstore.read_all(after_position=0, limit=10_000))
    with pytest.raises(TournamentImportError) as caught:
        tournament_import(lines=good)
    assert caught.value.code == "already_exists" and caught.value.status == 409
    assert len(eventstore.read_all(after_position=0, limit=10_000)) == events
    assert Tournament.objects.count() == 1


def test_the_command_says_why_it_refused(organiser, jobs, tmp_path):
    tournament = played_tournament(organiser, jobs)
    path = tmp_path / "t.jsonl"
    call_command("export_tournament", str(tournament.pk), "-o", str(path), "--no-progress",
                 stdout=io.StringIO())  # fmt: skip
    with pytest.raises(CommandError, match="already_exists: import into an empty database"):
        call_command("import_tournament", str(path), "--no-progress", stdout=io.StringIO())
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_tournament", str(tmp_path / "missing.jsonl"), stdout=io.StringIO())
    with pytest.raises(CommandError, match="not_found"):
        call_command("export_tournament", "999999", "--no-progress", stdout=io.StringIO())
