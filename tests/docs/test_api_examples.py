"""The manual's API examples work as written (docs/clients/examples.md; the README's until
issue 38): every block fenced as `sh example` runs, in order and in one shell, against the
app under uvicorn with `load_demo`'s data (what `make run` serves), and each block's output
shows what the page says it does. An
example that breaks (a wrong field, a refused request: curl runs with --fail-with-body)
fails this test."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.live.helpers import asgi_server

PAGE = Path(__file__).resolve().parents[2] / "docs" / "clients" / "examples.md"
BLOCK = re.compile(r"^```sh example\n(.*?)^```$", re.S | re.M)
MARK = "=== example block {} ==="


def page_examples() -> list[str]:
    return BLOCK.findall(PAGE.read_text(encoding="utf-8"))


def test_the_page_marks_its_examples():
    blocks = page_examples()
    assert len(blocks) >= 5
    text = "\n".join(blocks)
    for needed in ("/auth/token/", "/actions/", "knock", "/hands/", "/rulings/", "/stream/"):
        assert needed in text, needed


def _script(base_url: str) -> str:
    lines = [
        "set -eu",
        # Any HTTP error fails the command (and the script, where its status counts).
        'curl() { command curl --fail-with-body "$@"; }',
    ]
    for n, block in enumerate(page_examples()):
        lines += [f"echo '{MARK.format(n)}'", block]
    return "\n".join(lines).replace("http://127.0.0.1:8000", base_url)


def _outputs(stdout: str) -> list[list[str]]:
    parts = re.split(r"^=== example block \d+ ===$", stdout, flags=re.M)[1:]
    return [[line for line in part.splitlines() if line.strip()] for part in parts]


@pytest.mark.skipif(shutil.which("curl") is None, reason="the examples use curl")
@pytest.mark.django_db(transaction=True)
def test_the_examples_run_against_the_demo(settings):
    settings.LIVE_KEEPALIVE_SECONDS = 0.5
    settings.LIVE_POLL_SECONDS = 0.2
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    from players.models import Player

    alice = Player.objects.get(user__username="alice").pk
    bob = Player.objects.get(user__username="bob").pk
    with asgi_server() as url:
        done = subprocess.run(  # noqa: S603
            ["bash", "-c", _script(url)],  # noqa: S607
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = _outputs(done.stdout)
    assert len(out) == len(page_examples()), done.stdout

    # Tokens and the match: players by id, the caller's cards and legal actions.
    start = json.loads(out[0][-1])
    assert [p["id"] for p in start["players"]] == [alice, bob]
    assert start["turn"] in (alice, bob) and start["dealer"] in (alice, bob)
    assert start["legal_actions"] or start["turn"] != alice
    # The first move, by whoever the demo dealt to.
    passed = json.loads(out[1][-1])
    assert passed["phase"] == "upcard" and passed["turn"] in (alice, bob)
    # A whole hand, its events and a replay.
    hand, events, replay = (json.loads(line) for line in out[2][-3:])
    assert hand["hand_number"] == 1 and hand["kind"] in ("gin", "knock", "undercut", "drawn")
    if hand["kind"] != "drawn":
        assert hand["knocker"] in (alice, bob) and hand["winner"] in (alice, bob)
    assert events[0]["first_dealer"] in (alice, bob) and events[1]["dealer"] in (alice, bob)
    assert events[2]["player"] in (alice, bob) and events[2]["seat"] in (0, 1)
    assert set(replay["card_counts"]) == {str(alice), str(bob)}
    # A table hand and a ruling.
    table, scores = (json.loads(line) for line in out[3][-2:])
    assert (table["knocker"], table["winner"], table["points"]) == (bob, bob, 16)
    assert scores == {str(alice): 5, str(bob): 16}
    # Public tournament data without signing in, and a stream resumed after event 3.
    standings, pairings = json.loads(out[4][0]), json.loads(out[4][1])
    assert len(standings) == 3 and standings[0][0] == 1
    assert pairings >= 1
    assert out[4][2:5] == ["id: 4", "event: event", out[4][4]]
    assert out[4][4].startswith("data: {")
