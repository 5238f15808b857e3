#!/usr/bin/env python3
"""Check a match's audit bundle without trusting the server: standard library only.

    python3 -I tools/verify_bundle.py bundle.json

The bundle comes from GET /api/matches/{id}/bundle/ (or the replay page's download link).
Checks, and prints as it goes:
  1. the events are numbered 1, 2, 3, ... in order (none removed, added or reordered);
  2. the hash chain: each event shown in full is hashed again over its canonical encoding
     (README "Audit encodings") chained to the one before, from the empty string, and must
     equal the hash the server stored; the last one must equal the bundle's head_hash;
  3. every revealed deck: 52 distinct cards, and sha256 of {"deck", "salt"} equals the
     commitment published when the hand was dealt;
  4. the play of every revealed hand against its deck (a minimal rules check, not a full
     engine): each draw from the stock is the next card of the deck (position 21 on),
     each draw from the discard pile its top card, the deadwood values stated at the knock
     and the defence add up, and each hand's points follow the ruleset (gin: defender's
     deadwood + gin bonus; knock: the difference; undercut: bonus + difference). It does
     not find melds nor re-score the Hollywood scoresheet.
Events the bundle gives redacted (hidden cards of a hand still in play) carry no hash and
are counted as not checkable. Exit status 0 only when every check passed.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

FORMAT = "hollywood-gin-audit-bundle/1"
RANKS = "A23456789TJQK"
SUITS = "CDHS"
FULL_DECK = {r + s for r in RANKS for s in SUITS}


def canonical_json(value: Any) -> str:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def event_hash(stream_id: str, event: dict[str, Any], prev: str) -> str:
    body = {
        "stream_id": stream_id,
        "version": event["version"],
        "type": event["type"],
        "schema_version": event["schema_version"],
        "data": event["data"],
        "metadata": event["metadata"],
        "recorded_at": event["recorded_at"],
        "prev": prev,
    }
    return hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()


def commitment(deck: list[str], salt: str) -> str:
    payload = json.dumps({"deck": list(deck), "salt": salt}, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


def verify(bundle: dict[str, Any]) -> tuple[bool, list[str]]:
    """(all checks passed, the report's lines); the first failure names the event."""
    lines: list[str] = []
    failures: list[str] = []

    def fail(text: str) -> None:
        failures.append(text)
        lines.append(f"FAILED  {text}")

    if bundle.get("format") != FORMAT:
        fail(f"unknown bundle format {bundle.get('format')!r} (expected {FORMAT!r})")
        return False, lines
    match = bundle["match"]
    stream_id = match["stream_id"]
    events = bundle["events"]
    lines.append(f"match {match['id']} ({stream_id}), {len(events)} events")

    # 1. numbering
    for expected, event in enumerate(events, start=1):
        if event.get("version") != expected:
            fail(
                f"event at position {expected}: expected version {expected}, found"
                f" {event.get('version')} ({event.get('type')}): an event was removed,"
                " added or reordered"
            )
            break
    else:
        lines.append(f"ok      versions 1 to {len(events)} in order, none missing")

    # 2. the chain
    prev, checked, broken = "", 0, False
    for event in events:
        if not event.get("hash"):
            break
        found = event_hash(stream_id, event, prev)
        if found != event["hash"]:
            fail(
                f"event {event['version']} ({event['type']}): hash mismatch, the event or"
                " one before it was altered"
            )
            broken = True
            break
        prev, checked = found, checked + 1
    unhashed = sum(1 for e in events if not e.get("hash"))
    if not broken:
        if prev != bundle.get("head_hash", ""):
            fail(
                f"head hash: the chain ends at {prev!r},"
                f" the bundle says {bundle.get('head_hash')!r}"
            )
        else:
            lines.append(
                f"ok      hash chain of events 1 to {checked} recomputed and linked"
                + (f"; {unhashed} later events redacted for you: not checkable" if unhashed else "")
            )

    # 3. commitments
    for event in events:
        if event.get("type") != "HandDealt":
            continue
        data = event["data"]
        hand = data.get("hand_number")
        if "deck" not in data:
            lines.append(f"skip    hand {hand}: deck not revealed to you (hand in play)")
            continue
        deck = data["deck"]
        if len(deck) != 52 or set(deck) != FULL_DECK:
            fail(
                f"event {event['version']} (HandDealt, hand {hand}):"
                " the deck is not 52 distinct cards"
            )
        elif commitment(deck, data["salt"]) != data["commitment"]:
            fail(
                f"event {event['version']} (HandDealt, hand {hand}): the deck and salt do not"
                " hash to the commitment published at the deal"
            )
        else:
            lines.append(f"ok      hand {hand}: deck commitment {data['commitment'][:16]}…")
    for entry in bundle.get("commitments", []):
        dealt = next(
            (
                e
                for e in events
                if e.get("version") == entry.get("version") and e.get("type") == "HandDealt"
            ),
            None,
        )
        if dealt is None or dealt["data"].get("commitment") != entry.get("commitment"):
            fail(
                f"hand {entry.get('hand_number')}:"
                " the commitments list disagrees with its HandDealt event"
            )
    _check_play(bundle, events, fail, lines)
    return not failures, lines


VALUES = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 10)}}


def _points(cards: list[str]) -> int:
    return sum(VALUES[c[0]] for c in cards)


def _check_play(
    bundle: dict[str, Any], events: list[dict[str, Any]], fail: Any, lines: list[str]
) -> None:
    """Step 4: each revealed hand's draws against its deck, the stated deadwood values, and
    each hand's points against the ruleset."""
    rules = bundle["match"].get("ruleset") or {}
    gin_bonus, undercut_bonus = rules.get("gin_bonus", 25), rules.get("undercut_bonus", 10)
    deck: list[str] | None = None
    stock = 0
    pile: list[str] = []
    knock: dict[str, Any] | None = None
    defence: dict[str, Any] | None = None
    hands_checked = scored = 0
    for e in events:
        kind, d, where = (
            e.get("type"),
            e.get("data", {}),
            f"event {e.get('version')} ({e.get('type')})",
        )
        if kind == "HandDealt":
            deck = d.get("deck")
            if deck is not None:
                hands_checked += 1
                stock, pile = 21, [deck[20]]
            knock = defence = None
        elif kind == "CardDrawn" and deck is not None:
            if d["source"] == "stock":
                expected = deck[stock] if stock < len(deck) else None
                stock += 1
            else:
                expected = pile.pop() if pile else None
            if d.get("card") != expected:
                fail(
                    f"{where}: drew {d.get('card')} from the {d['source']},"
                    f" the deck says {expected}"
                )
                return
        elif kind == "CardDiscarded" and deck is not None:
            pile.append(d["card"])
        elif kind in ("Knocked", "DefenceLaidOut"):
            if kind == "Knocked":
                knock = d
                if deck is not None:
                    pile.append(d["discard"])
            else:
                defence = d
            if _points(d["deadwood"]) != d["deadwood_value"]:
                fail(
                    f"{where}: deadwood {d['deadwood']} is worth {_points(d['deadwood'])},"
                    f" not {d['deadwood_value']}"
                )
                return
            if kind == "Knocked" and d["gin"] and d["deadwood"]:
                fail(f"{where}: gin with deadwood {d['deadwood']}")
                return
        elif kind == "HandScored":
            k, dd, points = d["knocker_deadwood"], d["defender_deadwood"], d["points"]
            if knock is not None and knock["deadwood_value"] != k:
                fail(f"{where}: knocker deadwood {k}, the knock said {knock['deadwood_value']}")
                return
            if defence is not None and defence["deadwood_value"] != dd:
                fail(
                    f"{where}: defender deadwood {dd}, the defence said {defence['deadwood_value']}"
                )
                return
            expected = {
                "gin": dd + gin_bonus,
                "knock": dd - k,
                "undercut": undercut_bonus + k - dd,
            }.get(d["kind"])
            knocker_wins = d["kind"] in ("gin", "knock")
            if expected != points or (d["winner"] == d["knocker"]) != knocker_wins:
                fail(
                    f"{where}: a {d['kind']} with deadwood {k} / {dd} scores {expected} to the"
                    f" {'knocker' if knocker_wins else 'defender'},"
                    f" not {points} to seat {d['winner']}"
                )
                return
            scored += 1
    lines.append(
        f"ok      play of {hands_checked} revealed hands follows their decks;"
        f" {scored} hand scores follow the ruleset"
    )


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -I verify_bundle.py BUNDLE.json", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            bundle = json.load(f)
        ok, lines = verify(bundle)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"FAILED  cannot read the bundle: {exc!r}")
        return 1
    print("\n".join(lines))
    print("VERDICT: all checks passed" if ok else "VERDICT: FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
