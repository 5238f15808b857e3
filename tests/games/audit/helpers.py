"""Matches for the audit tests: played by the bots' moves through the services, between
players who can sign in."""

from __future__ import annotations

from pathlib import Path

from demo.bots import match_play_bots
from games.hand_entries import HandEntry
from games.models import Match
from games.selectors import match_state_at
from games.services import match_act, match_create
from players.models import Player

SHORT = {"game_target": 10, "games": 1}


def finished_match(alice: Player, bob: Player, *, seed: str = "audit", **kwargs) -> Match:
    match = match_create(player1=alice, player2=bob, seed=seed, ruleset=SHORT, **kwargs)
    return match_play_bots(match_id=match.id, bots_only=False)


def match_in_play(alice: Player, bob: Player, *, seed: str = "audit", moves: int = 3) -> Match:
    """A match whose first hand is in play after `moves` moves."""
    match = match_create(player1=alice, player2=bob, seed=seed, ruleset=SHORT)
    return match_play_bots(match_id=match.id, bots_only=False, max_actions=moves)


def play_until_hand(match: Match, hand_number: int) -> Match:
    """Bot moves until hand `hand_number` is in play (dealt, not over)."""
    from games.engine.bot import choose_action

    players = {0: match.player1, 1: match.player2}
    while True:
        state, version = match_state_at(match=match)
        if state.hand_number >= hand_number and state.in_play:
            return match
        assert state.status == "in_progress"
        action = choose_action(state, state.turn)
        match = match_act(
            match_id=match.id, player=players[state.turn], action=action, expected_version=version
        ).match


def tamper_event(*, stream_id: str, version: int, data: dict) -> None:
    """Change a stored event's data behind the store's back (its hash stays as it was)."""
    import json

    from django.db import connection

    import eventstore
    from eventstore.models import StoredEvent

    table = StoredEvent._meta.db_table
    cast = "::jsonb" if connection.vendor == "postgresql" else ""  # SQLite stores JSON as text
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET data = %s{cast} WHERE stream_id = %s AND version = %s",  # noqa: S608
            [json.dumps(data), stream_id, version],
        )


def deck_swapped(data: dict) -> dict:
    """A HandDealt's data with the first two cards of the deck swapped."""
    deck = list(data["deck"])
    deck[0], deck[1] = deck[1], deck[0]
    return {**data, "deck": deck}


def table_match_with_corrections(alice: Player, bob: Player, organiser) -> Match:
    """A table match: three hands recorded, hand 1 corrected, hand 2 voided."""
    from games.services import match_record_hand, match_rule

    match = match_create(player1=alice, player2=bob, mode="table", ruleset={"games": 1},
                         organisers=[organiser], first_dealer=alice)  # fmt: skip
    for knocker, k, d in ((alice, 5, 20), (bob, 3, 30), (alice, 4, 12)):
        match_record_hand(
            match_id=match.id,
            by=organiser,
            hand=HandEntry(knocker=knocker.pk, knocker_deadwood=k, defender_deadwood=d),
        )
    match_rule(
        match_id=match.id,
        by=organiser,
        type="correct_hand",
        hand_number=1,
        hand=HandEntry(knocker=alice.pk, knocker_deadwood=2, defender_deadwood=20),
        reason="deadwood miscounted",
    )
    match_rule(match_id=match.id, by=organiser, type="void_hand", hand_number=2,
               reason="misdeal")  # fmt: skip
    return Match.objects.get(pk=match.pk)


def tournament_match(organiser, players, *, is_public: bool = True, **settings):
    """A started tournament of two players (one round): (tournament, its match)."""
    from tournaments import services
    from tournaments.models import Pairing

    settings.setdefault("ruleset", {"game_target": 10, "games": 1})
    tournament = services.tournament_create(
        name="Open" if is_public else "Private", format="swiss", rounds=1, created_by=organiser,
        is_public=is_public, **settings,
    )  # fmt: skip
    for player in players:
        services.tournament_register(tournament_id=tournament.pk, player=player, by=organiser)
        services.tournament_check_in(tournament_id=tournament.pk, player=player, by=organiser)
    services.tournament_start(tournament_id=tournament.pk, by=organiser)
    pairing = Pairing.objects.filter(round__tournament=tournament, match__isnull=False).get()
    return tournament, Match.objects.get(pk=pairing.match_id)


def verifier_run(bundle: dict, tmp_path) -> tuple[int, str]:
    """tools/verify_match.py on `bundle`, as a third party runs it: `python3 -I` (no project
    on the path, no environment), from another directory. (exit status, output)"""
    import json
    import subprocess
    import sys

    path = tmp_path / "match-audit.json"
    path.write_text(json.dumps(bundle))
    done = subprocess.run(
        [sys.executable, "-I", str(VERIFIER), str(path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def verifier_module():
    """tools/verify_match.py loaded as a module (to re-chain a forged bundle's hashes)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("verify_match", VERIFIER)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def rechained(bundle: dict) -> dict:
    """The bundle with every hash recomputed, as a server rewriting its own history would:
    the chain is consistent again, only the deck and the rules can catch the forgery."""
    tool = verifier_module()
    prev = ""
    for version, event in enumerate(bundle["events"], start=1):
        event["version"] = version
        event["hash"] = prev = tool.event_hash(bundle["match"]["stream_id"], event, prev)
    bundle["head_hash"] = prev
    bundle["hashed_to"] = bundle["match"]["version"] = len(bundle["events"])
    deals = {e["data"]["hand_number"]: e for e in bundle["events"] if e["type"] == "HandDealt"}
    for entry in bundle.get("commitments", []):
        entry["version"] = deals[entry["hand_number"]]["version"]
    return bundle


VERIFIER = Path(__file__).resolve().parents[3] / "tools" / "verify_match.py"
