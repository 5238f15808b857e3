#!/usr/bin/env python3
"""Check a match's audit file without trusting the server: Python 3.10+, standard library only.

    python3 -I tools/verify_match.py match-audit.json

The file comes from GET /api/matches/{id}/audit/, the replay page's download link, or
`manage.py export_match`. Exit status 0 only when every check passes, 1 when one fails (the
verdict names the first discrepancy: event version, type, hand and what differs), 2 for a
file that cannot be read. Checks, printed as they go:

  1. numbering: the events are versions 1, 2, 3, ... in order, as many as the match says;
  2. the hash chain: every event shown in full is hashed again over its canonical encoding
     (README "Audit encodings"), chained from the empty string; each must equal the stored
     hash, the last the bundle's head_hash, and their count its hashed_to. The bundle's
     header against the (hashed) first event: the match's id and players (seat 0 and 1)
     against the registration in MatchStarted's metadata, its ruleset against
     MatchStarted's (defaults filled in);
  3. every revealed deck: 52 distinct cards whose sha256 with the salt is the commitment
     published when the hand was dealt;
  4. the rules, replayed from the events by this file's own implementation of RULES.md
     (deliberately not the server's engine: an auditor should not have to trust the code
     it audits). For every hand: the deal from the revealed deck and who deals; the upcard
     option, each draw (the top of the stock or of the pile), each discard (a card held,
     the discard restriction); a knock's validity (the stated melds, the deadwood, the
     knock limit, gin); the defender's best deadwood after layoffs (searched here, and the
     stated defence checked card by card); gin / knock / undercut and the points; drawn
     hands. For the match: the Hollywood scoresheet (which games each hand's points go to,
     games closing at the target with their end-of-game bonuses, the match winner and
     when the match ends), rulings (voids of the hand in play or of past hands, corrected
     table entries, score adjustments, forfeits, resignations, cancellations) with the
     re-derivation a correction or a past void causes, and dispute records. Finally the
     bundle's summary is compared with the result: its status; each entry of its `hands`
     list (one per hand over, in order: number, dealer, kind, knocker, winner, points,
     both deadwoods, the games it scored in, voided / after the end; for a dealt hand the
     final hands, stock, discard pile, knock and defence; its history: the `corrections`,
     one per HandCorrected event of the hand, in order, with the entries before and after,
     reason, who, the event's version and time, and a void's reason and who as its
     HandVoided event gives them); its scoresheet (required, as
     the format always carries it: each game's number, scores, bonuses, closed, winner;
     games_won and totals); and its `commitments` and `hands` lists (deck, salt,
     commitment) with the deals. A field the bundle leaves out is not compared.

Not checkable, and said so: events a player gets redacted (the hidden cards of a hand still
in play) carry no hash, and the rules check stops at such a hand. When a knocker states no
arrangement the server picks one of the knocker's best (RULES 6 Decision); the knocker may
state any valid one, so this file accepts any valid arrangement within the knock limit.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Callable, Iterator
from datetime import datetime
from functools import lru_cache
from itertools import combinations
from typing import Any

FORMAT = "hollywood-gin-audit-bundle/1"
RANKS = "A23456789TJQK"
SUITS = "CDHS"
FULL_DECK = frozenset(r + s for r in RANKS for s in SUITS)
VALUES = {r: min(i + 1, 10) for i, r in enumerate(RANKS)}
DEFAULT_RULESET = {
    "knock_limit": 10,
    "gin_bonus": 25,
    "undercut_bonus": 10,
    "game_target": 100,
    "games": 3,
    "end_when_decided": False,
    "discard_restriction": False,
    "game_bonus": 0,
    "box_bonus": 0,
    "shutout_doubles": False,
}
MAX_DEADWOOD = 98  # ten cards without a meld: at most eight tens and two nines
RULINGS = (
    "HandVoided",
    "HandCorrected",
    "ScoreAdjusted",
    "MatchForfeited",
    "PlayerResigned",
    "MatchCancelled",
)


# ------------------------------------------------------------------ 1-3: the encodings


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


class Report:
    """The printed lines and the failures, the first of which is the verdict's."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.failures: list[str] = []

    def ok(self, text: str) -> None:
        self.lines.append(f"ok      {text}")

    def skip(self, text: str) -> None:
        self.lines.append(f"skip    {text}")

    def fail(self, text: str) -> None:
        self.failures.append(text)
        self.lines.append(f"FAILED  {text}")


def check_numbering(bundle: dict[str, Any], report: Report) -> None:
    events = bundle["events"]
    for expected, event in enumerate(events, start=1):
        if event.get("version") != expected:
            report.fail(
                f"event at position {expected}: expected version {expected}, found"
                f" {event.get('version')} ({event.get('type')}): an event was removed,"
                " added or reordered"
            )
            return
    stated = bundle["match"].get("version")
    if stated is not None and stated != len(events):
        report.fail(
            f"the match is at version {stated} but the file holds {len(events)} events:"
            f" events {len(events) + 1} to {stated} are missing"
        )
        return
    report.ok(f"versions 1 to {len(events)} in order, none missing")


def content_digest(event: dict[str, Any]) -> str:
    """sha256 hex of canonical_json({"data", "metadata"}): what a Redacted record vouches for."""
    body = canonical_json({"data": event["data"], "metadata": event["metadata"]})
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def text_digest(salt: str, text: str) -> str:
    """HMAC-SHA256 of a text kept outside the log under its salt (hex)."""
    return hmac.new(bytes.fromhex(salt), text.encode("utf-8"), hashlib.sha256).hexdigest()


def check_chain(bundle: dict[str, Any], report: Report) -> None:
    stream_id = bundle["match"]["stream_id"]
    prev, checked, redacted = "", 0, []
    # Events whose personal data was erased later (a username, words written before such
    # text was kept outside the log): the server's sealed Redacted record gives the hash
    # they had and the digest of what they hold now. Their link to the event before cannot
    # be recomputed; the chain goes on from the hash they had.
    vouched = {(r["version"], r["hash"], r["digest"]) for r in bundle.get("redactions") or []}
    for event in bundle["events"]:
        if not event.get("hash"):
            break
        found = event_hash(stream_id, event, prev)
        if found != event["hash"]:
            if (event["version"], event["hash"], content_digest(event)) not in vouched:
                report.fail(
                    f"event {event['version']} ({event['type']}): hash mismatch, the event or"
                    " one before it was altered"
                )
                return
            found = event["hash"]
            redacted.append(event["version"])
        prev, checked = found, checked + 1
    if redacted:
        report.skip(
            f"events {', '.join(map(str, redacted))}: personal data erased (a Redacted record"
            " vouches for what they hold now); their own hashes cannot be recomputed"
        )
    if any(e.get("hash") for e in bundle["events"][checked:]):
        report.fail(f"event {checked + 1}: no hash, yet later events have one")
        return
    if prev != bundle.get("head_hash", ""):
        report.fail(
            f"head hash: the chain ends at {prev!r}, the bundle says {bundle.get('head_hash')!r}"
        )
        return
    if "hashed_to" in bundle and bundle["hashed_to"] != checked:
        report.fail(
            f"hashed_to: the bundle says {bundle['hashed_to']!r}, events 1 to {checked} carry"
            " their hashes"
        )
        return
    unhashed = len(bundle["events"]) - checked
    report.ok(
        f"hash chain of events 1 to {checked} recomputed and linked"
        + (f"; {unhashed} later events redacted for you: not checkable" if unhashed else "")
    )


def check_texts(bundle: dict[str, Any], report: Report) -> None:
    """Words kept outside the log (a reason, a statement, a comment, who wrote it): the event
    holds {"$text": id, "sha256": digest}; the bundle's `texts` gives each one's text and
    salt, checked against the digest and put in place for the rules check. An erased text
    (no text, no salt) reads as ""."""
    texts = bundle.get("texts") or {}
    checked = erased = 0
    for event in bundle["events"]:
        data = event.get("data") or {}
        for key, value in list(data.items()):
            if not (isinstance(value, dict) and "$text" in value):
                continue
            kept = texts.get(str(value["$text"])) or {}
            if kept.get("text") is None:
                data[key], erased = "", erased + 1
                continue
            if text_digest(kept["salt"], kept["text"]) != value.get("sha256"):
                report.fail(
                    f"event {event['version']} ({event['type']}): the text of {key!r} does not"
                    " match the digest the event holds"
                )
                return
            data[key], checked = kept["text"], checked + 1
    if checked or erased:
        report.ok(
            f"{checked} texts kept outside the log match their digests"
            + (f"; {erased} erased (not checkable)" if erased else "")
        )


def check_header(bundle: dict[str, Any], report: Report) -> None:
    """The bundle's match header against its first event: the ruleset against MatchStarted's
    data, the id and the players against the registration in its metadata (hashed, so it
    is what the server stored when it created the match)."""
    first = bundle["events"][0] if bundle["events"] else {}
    if first.get("type") != "MatchStarted" or not isinstance(first.get("data"), dict):
        return  # the rules check names a stream that does not start with MatchStarted
    where = f"match: the bundle's {{}}, MatchStarted (event {first.get('version')})"
    match = bundle["match"]
    stated = first["data"].get("ruleset")
    if "ruleset" in match and isinstance(stated, dict):
        rules = {**DEFAULT_RULESET, **stated}
        said = match["ruleset"] if isinstance(match["ruleset"], dict) else {}
        for key in sorted(set(rules) | set(said)):
            if said.get(key) != rules.get(key):
                report.fail(
                    where.format(f"ruleset {key} is {canonical_json(said.get(key))}")
                    + f" says {canonical_json(rules.get(key))}"
                )
                return
    registration = (first.get("metadata") or {}).get("match")
    if not first.get("hash") or not isinstance(registration, dict):
        report.skip("match header: the registration in the first event is not shown to you")
        return
    if "id" in match and match["id"] != registration.get("id"):
        report.fail(where.format(f"id is {match['id']!r}") + f" says {registration.get('id')!r}")
        return
    if "players" in match:
        players = match["players"] if isinstance(match["players"], list) else []
        if len(players) != 2:
            report.fail(where.format(f"players are {len(players)}") + " registers two")
            return
        seats = _seat_ids(bundle)
        for seat, key in ((0, "player1"), (1, "player2")):
            if seats.get(seat) != registration.get(key):
                report.fail(
                    where.format(f"player at seat {seat} is {canonical_json(seats.get(seat))}")
                    + f" registers {key} {canonical_json(registration.get(key))}"
                )
                return
    report.ok("match header: id, players and ruleset as the first event registers them")


def check_commitments(bundle: dict[str, Any], report: Report) -> None:
    events = bundle["events"]
    for event in events:
        if event.get("type") != "HandDealt":
            continue
        data = event["data"]
        hand = data.get("hand_number")
        if "deck" not in data:
            report.skip(f"hand {hand}: deck not revealed to you (hand in play)")
            continue
        deck = data["deck"]
        where = f"event {event['version']} (HandDealt, hand {hand})"
        if not isinstance(deck, list) or len(deck) != 52 or set(deck) != FULL_DECK:
            report.fail(f"{where}: the deck is not 52 distinct cards")
        elif commitment(deck, data["salt"]) != data["commitment"]:
            report.fail(
                f"{where}: the deck and salt do not hash to the commitment published at the deal"
            )
        else:
            report.ok(f"hand {hand}: deck commitment {data['commitment'][:16]}…")
    _check_dealt_lists(bundle, events, report)


def _check_dealt_lists(bundle: dict[str, Any], events: list[dict], report: Report) -> None:
    """The bundle's `commitments` and `hands` lists repeat each deal's commitment, deck and
    salt: every entry must be what its HandDealt event says (one entry per deal, none more)."""
    dealt = [e for e in events if e.get("type") == "HandDealt"]
    want = [
        {
            "hand_number": e["data"].get("hand_number"),
            "version": e.get("version"),
            "commitment": e["data"].get("commitment"),
            "deck": e["data"].get("deck"),
            "salt": e["data"].get("salt"),
        }
        for e in dealt
    ]
    listed = bundle.get("commitments")
    if not isinstance(listed, list) or len(listed) != len(want):
        report.fail(
            f"commitments list: {len(listed) if isinstance(listed, list) else 'none'} entries,"
            f" the events deal {len(want)} hands"
        )
        return
    for entry, expected in zip(listed, want, strict=True):
        for key, value in expected.items():
            if not isinstance(entry, dict) or entry.get(key) != value:
                report.fail(
                    f"hand {expected['hand_number']}: the commitments list's {key} disagrees"
                    f" with its HandDealt event {expected['version']}"
                )
                return
    by_hand = {w["hand_number"]: w for w in want}
    for entry in bundle.get("hands") or []:
        expected = by_hand.get(entry.get("hand_number")) if isinstance(entry, dict) else None
        if expected is None:
            continue  # a table match's hand: recorded, not dealt
        for key in ("commitment", "deck", "salt"):
            if key in entry and entry[key] != expected[key]:
                report.fail(
                    f"hand {expected['hand_number']}: the hands list's {key} disagrees"
                    f" with its HandDealt event {expected['version']}"
                )
                return


# ------------------------------------------------------------------ 4: cards and melds


def rank(card: str) -> int:
    return RANKS.index(card[0])


def points(cards: Any) -> int:
    return sum(VALUES[c[0]] for c in cards)


def is_set(cards: Any) -> bool:
    cards = list(cards)
    return (
        3 <= len(cards) <= 4 and len(set(cards)) == len(cards) and len({c[0] for c in cards}) == 1
    )


def is_run(cards: Any) -> bool:
    cards = list(cards)
    if len(cards) < 3 or len(set(cards)) != len(cards) or len({c[1] for c in cards}) != 1:
        return False
    ranks = sorted(rank(c) for c in cards)
    return ranks[-1] - ranks[0] == len(ranks) - 1


def is_meld(cards: Any) -> bool:
    return is_set(cards) or is_run(cards)


def candidate_melds(cards: frozenset[str]) -> list[frozenset[str]]:
    """Every set (3 or 4 of a rank) and run (a consecutive stretch of 3+ in a suit)."""
    out: list[frozenset[str]] = []
    for r in RANKS:
        same = [c for c in cards if c[0] == r]
        for size in (3, 4):
            out += [frozenset(m) for m in combinations(same, size)]
    for s in SUITS:
        ranks = sorted(rank(c) for c in cards if c[1] == s)
        held = set(ranks)
        for lo in ranks:
            hi = lo
            while hi + 1 in held:
                hi += 1
                if hi - lo >= 2:
                    out.append(frozenset(RANKS[i] + s for i in range(lo, hi + 1)))
    return out


def leftovers(cards: frozenset[str]) -> Iterator[frozenset[str]]:
    """The cards left out of melds, for every way of putting some cards in disjoint melds
    of one's own (each card is either in one meld or left over)."""
    melds = candidate_melds(cards)
    order = sorted(cards)

    def walk(i: int, free: frozenset[str], left: tuple[str, ...]) -> Iterator[frozenset[str]]:
        while i < len(order) and order[i] not in free:
            i += 1
        if i == len(order):
            yield frozenset(left)
            return
        card = order[i]
        yield from walk(i + 1, free - {card}, (*left, card))
        for meld in melds:
            if card in meld and meld <= free:
                yield from walk(i + 1, free - meld, left)

    yield from walk(0, cards, ())


def min_deadwood(cards: frozenset[str]) -> int:
    return min(points(left) for left in leftovers(cards))


# A knocker's meld while the defender lays off onto it: ("set", rank, size) or
# ("run", suit, lowest rank, highest rank).
Target = tuple[Any, ...]


def target_of(meld: list[str]) -> Target:
    if is_set(meld):
        return ("set", meld[0][0], len(meld))
    ranks = sorted(rank(c) for c in meld)
    return ("run", meld[0][1], ranks[0], ranks[-1])


def lay_off(target: Target, card: str) -> Target | None:
    """The meld with `card` added, or None if it does not fit (RULES 6: a fourth card to a
    set of three; the next card of the suit at either end of a run)."""
    if target[0] == "set":
        return ("set", target[1], 4) if target[2] == 3 and card[0] == target[1] else None
    _, suit, lo, hi = target
    if card[1] != suit:
        return None
    if rank(card) == lo - 1:
        return ("run", suit, lo - 1, hi)
    if rank(card) == hi + 1:
        return ("run", suit, lo, hi + 1)
    return None


@lru_cache(maxsize=100_000)
def most_laid_off(cards: frozenset[str], targets: tuple[Target, ...]) -> int:
    """The most points of `cards` the defender can lay off onto the knocker's melds, one
    after another (a laid-off card may let the next one fit)."""
    best = 0
    for card in cards:
        for i, target in enumerate(targets):
            grown = lay_off(target, card)
            if grown is not None:
                rest = (*targets[:i], grown, *targets[i + 1 :])
                best = max(best, VALUES[card[0]] + most_laid_off(cards - {card}, rest))
    return best


def best_defence(defender: frozenset[str], knocker_melds: list[list[str]], gin: bool) -> int:
    """The defender's least deadwood (RULES 6 Decision): their own melds, then layoffs onto
    the knocker's melds (none against gin)."""
    if gin:
        return min_deadwood(defender)
    targets = tuple(target_of(m) for m in knocker_melds)
    return min(points(left) - most_laid_off(left, targets) for left in leftovers(defender))


def score_hand(rules: dict[str, Any], knocker: int, gin: bool, k: int, d: int) -> tuple:
    """RULES 7: (kind, winner, points, how)."""
    if gin:
        return "gin", knocker, d + rules["gin_bonus"], f"gin: {d} + gin bonus {rules['gin_bonus']}"
    if k < d:
        return "knock", knocker, d - k, f"knock: {d} - {k}"
    bonus = rules["undercut_bonus"]
    return "undercut", 1 - knocker, bonus + k - d, f"undercut: bonus {bonus} + ({k} - {d})"


# --------------------------------------------------------------- 4: the Hollywood sheet


class Sheet:
    """The scoresheet re-derived from the hands counted so far and the score adjustments,
    in their order (RULES 8): how the server's corrections re-derive a match too."""

    def __init__(self, rules: dict[str, Any]) -> None:
        self.rules = rules
        self.games = [
            {
                "scores": [0, 0],
                "entered": [False, False],
                "winner": None,
                "hands_won": [0, 0],
                "bonuses": [0, 0],
            }
            for _ in range(rules["games"])
        ]
        self.winner: int | None = None
        self.closed: list[int] = []  # games in the order they ended
        self.dealers: list[int | None] = []  # who dealt each record (None: after the end)

    def win(self, seat: int, pts: int) -> list[int]:
        open_games = [n for n, g in enumerate(self.games, 1) if g["winner"] is None]
        entering = next((n for n in open_games if not self.games[n - 1]["entered"][seat]), None)
        scored = [n for n in open_games if self.games[n - 1]["entered"][seat] or n == entering]
        for n in scored:
            g = self.games[n - 1]
            g["scores"][seat] += pts
            g["entered"][seat] = True
            g["hands_won"][seat] += 1
        self._close_reached(seat)
        return scored

    def adjust(self, seat: int, game: int, pts: int) -> bool:
        """A score adjustment, if it still fits where it was made."""
        g = self.games[game - 1]
        if g["winner"] is not None or g["scores"][seat] + pts < 0:
            return False
        g["scores"][seat] += pts
        self._close_reached(seat)
        return True

    def _close_reached(self, seat: int) -> None:
        rules, won = self.rules, False
        for n, g in enumerate(self.games, 1):
            if g["winner"] is None and g["scores"][seat] >= rules["game_target"]:
                bonuses = [
                    rules["box_bonus"] * g["hands_won"][0],
                    rules["box_bonus"] * g["hands_won"][1],
                ]
                bonuses[seat] += rules["game_bonus"]
                if rules["shutout_doubles"] and g["scores"][1 - seat] == 0:
                    bonuses[seat] += g["scores"][seat] + bonuses[seat]
                g["winner"], g["bonuses"] = seat, bonuses
                self.closed.append(n)
                won = True
        if won:
            self.winner = self._match_winner()

    def _match_winner(self) -> int | None:
        wins = [g["winner"] for g in self.games]
        if None in wins and not self.rules["end_when_decided"]:
            return None
        for seat in (0, 1):
            if wins.count(seat) >= len(self.games) // 2 + 1:
                return seat
        return None


def derive(
    rules: dict[str, Any], first_dealer: int, records: list[dict], adjustments: list[dict]
) -> tuple[Sheet, list[list[int] | None], int]:
    """The sheet, each record's games (None: after the match's end) and the next dealer."""
    sheet = Sheet(rules)
    at: dict[int, list[dict]] = {}
    for a in adjustments:
        at.setdefault(a["after_hands"], []).append(a)
    dealer, games = first_dealer, []
    for place, record in enumerate(records):
        for a in at.pop(place, ()):
            if sheet.winner is None:
                sheet.adjust(a["seat"], a["game"], a["points"])
        if sheet.winner is not None:
            games.append(None)
            sheet.dealers.append(None)
            continue
        sheet.dealers.append(record["dealer"] if record["dealer"] is not None else dealer)
        if record["kind"] in ("drawn", "voided") or record.get("voided"):
            games.append([])
            if record["dealer"] is not None:  # online: who really dealt deals again
                dealer = record["dealer"]
        else:
            games.append(sheet.win(record["winner"], record["points"]))
            dealer = record["winner"]
    for place in sorted(at):
        for a in at[place]:
            if sheet.winner is None:
                sheet.adjust(a["seat"], a["game"], a["points"])
    return sheet, games, dealer


# ------------------------------------------------------------------- 4: the referee


class Discrepancy(Exception):
    pass


Expected = tuple[str, Any]  # (event type, its data, or a function checking it)


class Referee:
    """Replays the events with the rules; raises Discrepancy at the first one that the
    rules do not give."""

    def __init__(self, players: dict[int, str]) -> None:
        self.players = players
        self.rules: dict[str, Any] = {}
        self.mode = ""
        self.first_dealer = 0
        self.status = "new"  # new | in_progress | finished
        self.winner: int | None = None
        self.finish: str | None = None  # games | forfeit | resigned | cancelled
        self.records: list[dict[str, Any]] = []
        self.adjustments: list[dict[str, Any]] = []
        self.hand: dict[str, Any] | None = None  # the online hand in play
        self.hand_number = 0
        self.expected: list[Expected] = []
        self.disputes: dict[int, str | None] = {}  # number -> outcome
        self.ruling_just_made = False
        self.stats = {"knock": 0, "gin": 0, "undercut": 0, "drawn": 0, "voided": 0}
        self.redacted_at: int | None = None
        self.event: dict[str, Any] = {}  # the event being stepped (set by check_rules)
        self.unfinished: dict[str, Any] | None = None  # the hand in play when it ended

    # -- stepping -----------------------------------------------------------------------

    def step(self, kind: str, data: dict[str, Any]) -> None:
        if self.expected:
            want, check = self.expected.pop(0)
            if kind != want:
                detail = "" if callable(check) else f" {canonical_json(check)}"
                raise Discrepancy(f"the rules call for {want}{detail} here, not {kind}")
            if callable(check):
                check(data)
            else:
                _same(kind, data, check)
            return
        if kind in ("DefenceLaidOut", "HandScored", "GameWon", "MatchFinished", "MatchReopened"):
            raise Discrepancy(f"{kind} here does not follow from the events before it")
        handler = getattr(self, f"on_{kind}", None)
        if handler is None:
            raise Discrepancy(f"unknown event type {kind}")
        if kind != "MatchStarted" and self.status == "new":
            raise Discrepancy("the match has not started")
        handler(data)
        # A ruling that settles a dispute comes just before its DisputeResolved (with the
        # next deal in between when the ruling ended the hand in play).
        if kind in RULINGS:
            self.ruling_just_made = True
        elif kind != "HandDealt" and not kind.startswith("Dispute"):
            self.ruling_just_made = False

    def derived(self) -> tuple[Sheet, list[list[int] | None], int]:
        return derive(self.rules, self.first_dealer, self.records, self.adjustments)

    def _require_play(self, what: str) -> None:
        if self.status != "in_progress":
            raise Discrepancy(f"{what} after the match ended")

    # -- the match ----------------------------------------------------------------------

    def on_MatchStarted(self, d: dict[str, Any]) -> None:
        if self.status != "new":
            raise Discrepancy("a second MatchStarted")
        unknown = set(d["ruleset"]) - set(DEFAULT_RULESET)
        if unknown:
            raise Discrepancy(f"unknown ruleset options {sorted(unknown)}")
        self.rules = {**DEFAULT_RULESET, **d["ruleset"]}
        if self.rules["games"] not in (1, 3) or d["first_dealer"] not in (0, 1):
            raise Discrepancy("games must be 1 or 3 and the first dealer seat 0 or 1")
        if d["mode"] not in ("online", "table"):
            raise Discrepancy(f"unknown mode {d['mode']!r}")
        self.mode, self.first_dealer, self.status = d["mode"], d["first_dealer"], "in_progress"

    def on_HandDealt(self, d: dict[str, Any]) -> None:
        self._require_play("a deal")
        if self.mode != "online":
            raise Discrepancy("a deal in a table match (its hands are recorded)")
        if self.hand is not None:
            raise Discrepancy(f"a deal while hand {self.hand_number} is in play")
        _, _, dealer = self.derived()
        if d["hand_number"] != self.hand_number + 1:
            raise Discrepancy(f"hand number {d['hand_number']}, the next is {self.hand_number + 1}")
        if d["dealer"] != dealer:
            raise Discrepancy(
                f"dealt by seat {d['dealer']}; the dealer is seat {dealer} (RULES 3: the winner"
                " of a hand deals the next; after a drawn or voided hand the same dealer)"
            )
        self.hand_number = d["hand_number"]
        if "deck" not in d:
            self.redacted_at = self.hand_number
            raise Redacted
        deck = d["deck"]
        if len(deck) != 52 or set(deck) != FULL_DECK:
            raise Discrepancy("the deck is not 52 distinct cards")
        dealer_cards, other = set(deck[1:20:2]), set(deck[0:20:2])
        self.hand = {
            "number": d["hand_number"],
            "dealer": dealer,
            "cards": {dealer: dealer_cards, 1 - dealer: other},
            "pile": [deck[20]],
            "stock": list(deck[21:]),
            "phase": "upcard",
            "turn": 1 - dealer,
            "passes": 0,
            "stock_only": False,
            "taken": None,
        }

    def _turn(self, seat: int, phases: tuple[str, ...], what: str) -> dict[str, Any]:
        hand = self.hand
        if hand is None:
            raise Discrepancy(f"{what} with no hand in play")
        if seat != hand["turn"]:
            raise Discrepancy(f"{what} by seat {seat}; it is seat {hand['turn']}'s move")
        if hand["phase"] not in phases:
            raise Discrepancy(f"{what} in the {hand['phase']} phase")
        return hand

    def on_UpcardPassed(self, d: dict[str, Any]) -> None:
        hand = self._turn(d["seat"], ("upcard",), "a pass")
        hand["passes"] += 1
        if hand["passes"] == 1:
            hand["turn"] = hand["dealer"]
        else:  # RULES 4.3: both passed, the non-dealer draws from the stock
            hand.update(phase="draw", turn=1 - hand["dealer"], stock_only=True)

    def on_CardDrawn(self, d: dict[str, Any]) -> None:
        hand = self._turn(d["seat"], ("upcard", "draw"), "a draw")
        if d["source"] == "discard":
            if hand["stock_only"]:
                raise Discrepancy("both passed the upcard: the non-dealer draws from the stock")
            top = hand["pile"][-1] if hand["pile"] else None
            if d["card"] != top:
                raise Discrepancy(f"drew {d['card']} from the discard pile, its top is {top}")
            hand["pile"].pop()
            hand["taken"] = d["card"]
        elif d["source"] == "stock":
            if hand["phase"] == "upcard":
                raise Discrepancy("the stock is drawn only once both passed the upcard (RULES 4)")
            if len(hand["stock"]) <= 2:
                raise Discrepancy("the last two stock cards are never drawn (RULES 7)")
            if d["card"] != hand["stock"][0]:
                raise Discrepancy(
                    f"drew {d['card']} from the stock, the deck says {hand['stock'][0]}"
                )
            hand["stock"].pop(0)
            hand["taken"] = None
        else:
            raise Discrepancy(f"unknown source {d['source']!r}")
        hand["cards"][d["seat"]].add(d["card"])
        hand.update(phase="discard", stock_only=False)

    def _let_go(self, hand: dict[str, Any], seat: int, card: str, what: str) -> None:
        if card not in hand["cards"][seat]:
            raise Discrepancy(f"{what} {card}, which seat {seat} does not hold")
        if self.rules["discard_restriction"] and card == hand["taken"]:
            raise Discrepancy(f"{what} {card}, just taken from the pile (discard restriction)")
        hand["cards"][seat].discard(card)
        hand["pile"].append(card)

    def on_CardDiscarded(self, d: dict[str, Any]) -> None:
        hand = self._turn(d["seat"], ("discard",), "a discard")
        self._let_go(hand, d["seat"], d["card"], "discarded")
        hand.update(phase="draw", turn=1 - d["seat"], taken=None)
        if len(hand["stock"]) <= 2:  # RULES 7: a drawn hand
            self.expected.append(("HandDrawn", {"hand_number": hand["number"]}))
            self._hand_over({"kind": "drawn"})

    def on_Knocked(self, d: dict[str, Any]) -> None:
        seat = d["seat"]
        hand = self._turn(seat, ("discard",), "a knock")
        self._let_go(hand, seat, d["discard"], "knocked with")
        held = hand["cards"][seat]
        _arranged(held, d["melds"], "the knocker's")
        deadwood = held - {c for m in d["melds"] for c in m}
        if set(d["deadwood"]) != deadwood or len(d["deadwood"]) != len(deadwood):
            raise Discrepancy(
                f"deadwood stated {d['deadwood']}, the melds leave {sorted(deadwood)}"
            )
        k = points(deadwood)
        if d["deadwood_value"] != k:
            raise Discrepancy(
                f"deadwood {sorted(deadwood)} is worth {k}, not {d['deadwood_value']}"
            )
        limit = self.rules["knock_limit"]
        if k > limit:
            raise Discrepancy(f"deadwood {k} exceeds the knock limit {limit} (RULES 6)")
        if d["gin"] != (k == 0):
            raise Discrepancy(f"gin is {d['gin']} with deadwood {k}")
        defender = frozenset(hand["cards"][1 - seat])
        best = best_defence(defender, d["melds"], d["gin"])
        hand["knock"] = d

        def check_defence(e: dict[str, Any]) -> None:
            _defence_checked(e, seat, defender, d["melds"], d["gin"], best)
            hand["defence"] = e

        self.expected.append(("DefenceLaidOut", check_defence))
        kind, winner, pts, how = score_hand(self.rules, seat, d["gin"], k, best)
        self._scored(kind, seat, winner, pts, k, best, how)

    # -- the end of a hand --------------------------------------------------------------

    def _scored(
        self, kind: str, knocker: int, winner: int, pts: int, k: int, dd: int, how: str
    ) -> None:
        before, _, _ = self.derived()
        self._hand_over(
            {
                "kind": kind,
                "winner": winner,
                "points": pts,
                "knocker": knocker,
                "knocker_deadwood": k,
                "defender_deadwood": dd,
            }
        )
        after, games, _ = self.derived()
        scored = {
            "hand_number": self.records[-1]["hand_number"],
            "kind": kind,
            "knocker": knocker,
            "winner": winner,
            "points": pts,
            "knocker_deadwood": k,
            "defender_deadwood": dd,
            "games": games[-1],
        }
        self.expected.append(("HandScored", _Because(scored, how)))
        self._game_ends(before, after)

    def _game_ends(self, before: Sheet, after: Sheet) -> None:
        for n in after.closed[len(before.closed) :]:
            g = after.games[n - 1]
            self.expected.append(
                (
                    "GameWon",
                    {
                        "game": n,
                        "winner": g["winner"],
                        "scores": g["scores"],
                        "bonuses": g["bonuses"],
                    },
                )
            )
        if before.winner is None and after.winner is not None:
            self.expected.append(("MatchFinished", {"winner": after.winner, "reason": "games"}))
            self._finished(after.winner, "games")

    def _hand_over(self, result: dict[str, Any]) -> None:
        dealer = self.hand["dealer"] if self.hand else None
        if self.hand is None:  # table mode: a new hand number per entry
            self.hand_number += 1
        record = {"hand_number": self.hand_number, "dealer": dealer, **result}
        if self.hand is not None:  # the cards at its end, for the bundle's hands list
            record["cards"] = self.hand
        self.records.append(record)
        self.stats[result["kind"]] += 1
        self.hand = None

    def _finished(self, winner: int | None, reason: str) -> None:
        if self.hand is not None:
            self.unfinished = self.hand
        self.status, self.winner, self.finish, self.hand = "finished", winner, reason, None

    # -- table mode ---------------------------------------------------------------------

    def on_HandRecorded(self, d: dict[str, Any]) -> None:
        self._require_table("a hand recorded")
        if d["hand_number"] != self.hand_number + 1:
            raise Discrepancy(f"hand number {d['hand_number']}, the next is {self.hand_number + 1}")
        _entry_checked(
            self.rules, d["knocker"], d["gin"], d["knocker_deadwood"], d["defender_deadwood"]
        )
        k, dd = d["knocker_deadwood"], d["defender_deadwood"]
        kind, winner, pts, how = score_hand(self.rules, d["knocker"], d["gin"], k, dd)
        self._scored(kind, d["knocker"], winner, pts, k, dd, how)

    def on_HandDrawn(self, d: dict[str, Any]) -> None:
        self._require_table("a drawn hand (online: only when the stock is down to two cards)")
        if d["hand_number"] != self.hand_number + 1:
            raise Discrepancy(f"hand number {d['hand_number']}, the next is {self.hand_number + 1}")
        self._hand_over({"kind": "drawn"})

    def _require_table(self, what: str) -> None:
        self._require_play(what)
        if self.mode != "table":
            raise Discrepancy(f"{what} in an online match")

    # -- rulings ------------------------------------------------------------------------

    def on_HandVoided(self, d: dict[str, Any]) -> None:
        hand = self.hand
        if hand is not None and d["hand_number"] == hand["number"]:
            self._hand_over({"kind": "voided", "void": self._ruled(d)})
            return
        if hand is not None:
            raise Discrepancy(
                f"hand {hand['number']} is in play: a past hand is voided between hands"
            )
        record = self._past(d["hand_number"], "voided")
        void = self._ruled(d)
        self._rederived(lambda: record.update(voided=True, void=void), d["hand_number"], "void")

    def on_HandCorrected(self, d: dict[str, Any]) -> None:
        if self.mode != "table":
            raise Discrepancy("only table hands are corrected; an online hand is voided")
        record = self._past(d["hand_number"], "corrected")
        now = _entry_of(record)
        if d["before"] != now:
            raise Discrepancy(
                f"'before' is {canonical_json(d['before'])}, the hand's entry is"
                f" {canonical_json(now)}"
            )
        after = d["after"]
        if after.get("drawn"):
            want = dict(DRAWN_ENTRY)
        else:
            _entry_checked(
                self.rules,
                after.get("knocker"),
                after.get("gin"),
                after.get("knocker_deadwood"),
                after.get("defender_deadwood"),
            )
            kind, winner, pts, _ = score_hand(
                self.rules,
                after["knocker"],
                after["gin"],
                after["knocker_deadwood"],
                after["defender_deadwood"],
            )
            want = {
                "kind": kind,
                "drawn": False,
                "knocker": after["knocker"],
                "gin": after["gin"],
                "knocker_deadwood": after["knocker_deadwood"],
                "defender_deadwood": after["defender_deadwood"],
                "winner": winner,
                "points": pts,
            }
        if after != want:
            raise Discrepancy(
                f"'after' is {canonical_json(after)}, the rules score that entry"
                f" {canonical_json(want)}"
            )
        if after == now:
            raise Discrepancy("a correction that changes nothing")
        correction = {"before": d["before"], "after": after, **self._ruled(d)}

        def rewrite() -> None:
            keep = {
                "hand_number": record["hand_number"],
                "dealer": record["dealer"],
                "corrections": [*record.get("corrections", []), correction],
            }
            record.clear()
            record.update(
                keep,
                **{
                    k: want[k]
                    for k in (
                        "kind",
                        "winner",
                        "points",
                        "knocker",
                        "knocker_deadwood",
                        "defender_deadwood",
                    )
                },
            )

        self._rederived(rewrite, d["hand_number"], "correction")

    def _ruled(self, d: dict[str, Any]) -> dict[str, Any]:
        """A ruling's reason and who made it (as its data names them), its event's version
        and time: what a hand's history in the bundle's hands list repeats."""
        event = self.event
        return {
            "reason": d.get("reason"),
            "by": d.get("by"),
            "version": event.get("version"),
            "at": event.get("recorded_at"),
        }

    def _past(self, number: Any, verb: str) -> dict[str, Any]:
        if self.finish == "cancelled":
            raise Discrepancy(f"the match was cancelled: none of its hands can be {verb}")
        record = next((r for r in self.records if r["hand_number"] == number), None)
        if record is None:
            raise Discrepancy(f"there is no finished hand {number!r} to be {verb}")
        if record["kind"] == "voided" or record.get("voided"):
            raise Discrepancy(f"hand {number} is voided already")
        return record

    def _rederived(self, change: Callable[[], None], number: int, reason: str) -> None:
        """A past hand changed: the match re-derived, and what that says about its end."""
        change()
        if self.finish in ("forfeit", "resigned"):
            return  # a ruling about the match, not its score: it stands
        sheet, _, _ = self.derived()
        if sheet.winner is not None:
            if self.status != "finished" or self.winner != sheet.winner:
                self.expected.append(("MatchFinished", {"winner": sheet.winner, "reason": "games"}))
            self._finished(sheet.winner, "games")
        elif self.status == "finished":
            self.expected.append(("MatchReopened", {"hand_number": number, "reason": reason}))
            self.status, self.winner, self.finish = "in_progress", None, None

    def on_ScoreAdjusted(self, d: dict[str, Any]) -> None:
        self._require_play("a score adjustment")
        seat, game, pts = d["seat"], d["game"], d["points"]
        if seat not in (0, 1) or not (isinstance(game, int) and 1 <= game <= self.rules["games"]):
            raise Discrepancy(f"there is no seat {seat!r} or game {game!r}")
        if not isinstance(pts, int) or isinstance(pts, bool) or pts == 0:
            raise Discrepancy("points must be a non-zero whole number")
        before, _, _ = self.derived()
        g = before.games[game - 1]
        if g["winner"] is not None or g["scores"][seat] + pts < 0:
            raise Discrepancy(f"game {game} has ended or the score would become negative")
        self.adjustments.append(
            {"after_hands": len(self.records), "seat": seat, "game": game, "points": pts}
        )
        after, _, _ = self.derived()
        self._game_ends(before, after)

    def on_MatchForfeited(self, d: dict[str, Any]) -> None:
        self._require_play("a forfeit")
        self.expected.append(("MatchFinished", {"winner": d["winner"], "reason": "forfeit"}))
        self._finished(d["winner"], "forfeit")

    def on_PlayerResigned(self, d: dict[str, Any]) -> None:
        self._require_play("a resignation")
        self.expected.append(("MatchFinished", {"winner": 1 - d["seat"], "reason": "resigned"}))
        self._finished(1 - d["seat"], "resigned")

    def on_MatchCancelled(self, d: dict[str, Any]) -> None:
        self._require_play("a cancellation")
        self._finished(None, "cancelled")

    # -- disputes (records only) --------------------------------------------------------

    def on_DisputeOpened(self, d: dict[str, Any]) -> None:
        if d["dispute"] != len(self.disputes) + 1 or d["seat"] not in (0, 1):
            raise Discrepancy(
                f"dispute #{d['dispute']} by seat {d['seat']!r}: the next is"
                f" #{len(self.disputes) + 1}, by a player"
            )
        played = max(self.hand_number, len(self.records))
        if d["hand_number"] is not None and not 1 <= d["hand_number"] <= played:
            raise Discrepancy(f"dispute on hand {d['hand_number']}, only {played} were played")
        self.disputes[d["dispute"]] = None

    def _open(self, number: int) -> None:
        if number not in self.disputes:
            raise Discrepancy(f"there is no dispute #{number}")
        if self.disputes[number] is not None:
            raise Discrepancy(f"dispute #{number} is already {self.disputes[number]}")

    def on_DisputeCommented(self, d: dict[str, Any]) -> None:
        self._open(d["dispute"])

    def on_DisputeResolved(self, d: dict[str, Any]) -> None:
        self._open(d["dispute"])
        if d["outcome"] not in ("ruled", "dismissed"):
            raise Discrepancy(f"unknown outcome {d['outcome']!r}")
        if d["outcome"] == "ruled" and not self.ruling_just_made:
            raise Discrepancy("resolved as ruled, but no ruling comes just before")
        self.disputes[d["dispute"]] = d["outcome"]

    def finish_check(self) -> None:
        if self.expected:
            want, _ = self.expected[0]
            raise Discrepancy(f"the events end where the rules call for {want}")


class Redacted(Exception):
    """A hand this reader may not see yet: the rules check stops there."""


class _Because(dict):
    """Expected data with the reason, for the message."""

    def __init__(self, data: dict[str, Any], how: str) -> None:
        super().__init__(data)
        self.how = how


def _same(kind: str, data: dict[str, Any], want: dict[str, Any]) -> None:
    for key, value in want.items():
        if data.get(key) != value:
            how = f" ({want.how})" if isinstance(want, _Because) and key != "games" else ""
            raise Discrepancy(
                f"{key} is {canonical_json(data.get(key))}, the rules give"
                f" {canonical_json(value)}{how}"
            )
    extra = set(data) - set(want)
    if extra:
        raise Discrepancy(f"unexpected fields {sorted(extra)}")


def _arranged(held: set[str], melds: list[list[str]], whose: str) -> None:
    used: set[str] = set()
    for meld in melds:
        if not is_meld(meld):
            raise Discrepancy(f"{whose} meld {' '.join(meld)} is not a set or a run")
        for card in meld:
            if card not in held or card in used:
                raise Discrepancy(f"{whose} meld uses {card}, not held or used twice")
            used.add(card)


def _defence_checked(
    e: dict[str, Any],
    knocker: int,
    defender: frozenset[str],
    knocker_melds: list[list[str]],
    gin: bool,
    best: int,
) -> None:
    if e["seat"] != 1 - knocker:
        raise Discrepancy(f"the defence of seat {e['seat']}, the defender is seat {1 - knocker}")
    _arranged(set(defender), e["melds"], "the defender's")
    own = {c for m in e["melds"] for c in m}
    if gin and e["layoffs"]:
        raise Discrepancy("layoffs against gin (RULES 6: none)")
    targets = [target_of(m) for m in knocker_melds]
    laid: set[str] = set()
    for card, index in e["layoffs"]:
        if card not in defender or card in own or card in laid:
            raise Discrepancy(f"laid off {card}, not the defender's to lay off")
        if not (isinstance(index, int) and 0 <= index < len(targets)):
            raise Discrepancy(f"laid off {card} onto meld {index!r}, which the knocker has not")
        grown = lay_off(targets[index], card)
        if grown is None:
            raise Discrepancy(
                f"laid off {card} onto {' '.join(knocker_melds[index])}: it does not fit"
            )
        targets[index] = grown
        laid.add(card)
    rest = defender - own - laid
    if set(e["deadwood"]) != rest or len(e["deadwood"]) != len(rest):
        raise Discrepancy(
            f"deadwood stated {e['deadwood']}, the melds and layoffs leave {sorted(rest)}"
        )
    if e["deadwood_value"] != points(rest):
        raise Discrepancy(
            f"deadwood {sorted(rest)} is worth {points(rest)}, not {e['deadwood_value']}"
        )
    if e["deadwood_value"] != best:
        raise Discrepancy(
            f"the defender is left {e['deadwood_value']} deadwood; their best melds"
            f" and layoffs leave {best} (RULES 6 Decision)"
        )


DRAWN_ENTRY = {
    "kind": "drawn",
    "drawn": True,
    "knocker": None,
    "gin": False,
    "knocker_deadwood": None,
    "defender_deadwood": None,
    "winner": None,
    "points": None,
}


def _entry_of(record: dict[str, Any]) -> dict[str, Any]:
    if record["kind"] == "drawn":
        return dict(DRAWN_ENTRY)
    return {
        "kind": record["kind"],
        "drawn": False,
        "knocker": record["knocker"],
        "gin": record["kind"] == "gin",
        "knocker_deadwood": record["knocker_deadwood"],
        "defender_deadwood": record["defender_deadwood"],
        "winner": record["winner"],
        "points": record["points"],
    }


def _entry_checked(rules: dict[str, Any], knocker: Any, gin: Any, k: Any, d: Any) -> None:
    """A table entry as RULES 2 and 6 allow it."""
    if knocker not in (0, 1) or isinstance(knocker, bool) or not isinstance(gin, bool):
        raise Discrepancy(f"knocker {knocker!r} / gin {gin!r}: a seat and true or false")
    for value in (k, d):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise Discrepancy(f"deadwood {value!r} is not a whole number >= 0")
    if k > rules["knock_limit"]:
        raise Discrepancy(f"knocker deadwood {k} exceeds the knock limit {rules['knock_limit']}")
    if gin != (k == 0):
        raise Discrepancy(f"gin is {gin} with knocker deadwood {k}")
    if d > MAX_DEADWOOD:
        raise Discrepancy(f"defender deadwood {d}: ten cards hold at most {MAX_DEADWOOD}")


def check_rules(bundle: dict[str, Any], report: Report) -> Referee:
    players = {p["seat"]: p["name"] for p in bundle["match"].get("players", [])}
    referee = Referee(players)
    for event in bundle["events"]:
        kind, data = event.get("type"), event.get("data") or {}
        hand = data.get("hand_number", referee.hand_number) if isinstance(data, dict) else None
        try:
            referee.event = event
            referee.step(kind, data)
        except Redacted:
            report.skip(
                f"rules: hand {referee.redacted_at} is not revealed to you (in play);"
                f" the rules were checked up to event {event['version'] - 1}"
            )
            _check_hands(bundle, referee, report)
            return referee
        except Discrepancy as exc:
            report.fail(f"event {event.get('version')} ({kind}, hand {hand}): {exc}")
            return referee
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            report.fail(
                f"event {event.get('version')} ({kind}, hand {hand}): malformed data ({exc!r})"
            )
            return referee
    try:
        referee.finish_check()
    except Discrepancy as exc:
        report.fail(f"after event {len(bundle['events'])}: {exc}")
        return referee
    s = referee.stats
    report.ok(
        f"rules: {len(referee.records)} hands replayed ({s['knock']} knock, {s['gin']} gin,"
        f" {s['undercut']} undercut, {s['drawn']} drawn, {s['voided']} voided;"
        f" {sum(1 for r in referee.records if r.get('voided'))} voided afterwards);"
        f" {len(referee.adjustments)} adjustments; {len(referee.disputes)} disputes"
    )
    _check_hands(bundle, referee, report)
    _check_summary(bundle, referee, report)
    return referee


def _check_summary(bundle: dict[str, Any], referee: Referee, report: Report) -> None:
    """The scoresheet the rules give, and the bundle's own summary against it."""
    sheet, _, _ = referee.derived()
    name = referee.players.get
    for n, g in enumerate(sheet.games, 1):
        totals = [g["scores"][s] + g["bonuses"][s] for s in (0, 1)]
        state = f"won by {name(g['winner'], g['winner'])}" if g["winner"] is not None else "open"
        report.ok(
            f"game {n}: {name(0, 'seat 0')} {totals[0]}, {name(1, 'seat 1')} {totals[1]} ({state})"
        )
    status = referee.status
    report.ok(
        f"match {status}"
        + (f", {referee.finish}" if referee.finish else "")
        + (f", won by {name(referee.winner, referee.winner)}" if referee.winner is not None else "")
    )
    stated = bundle["match"].get("status")
    if stated is not None and stated != status:
        report.fail(f"summary: the bundle says the match is {stated}, the events say {status}")
    summary = bundle.get("scoresheet")
    if not isinstance(summary, dict) or not isinstance(summary.get("games"), list):
        # The format always carries the match's scoresheet (in play too): one left out or
        # emptied cannot be compared, so it fails rather than passing unchecked.
        report.fail("summary: the bundle has no scoresheet to compare with the events")
        return
    if len(summary["games"]) != len(sheet.games):
        report.fail(
            f"summary: {len(summary['games'])} games in the bundle's scoresheet, the events"
            f" give {len(sheet.games)}"
        )
        return
    ids = _seat_ids(bundle)
    for n, (g, said) in enumerate(zip(sheet.games, summary["games"], strict=False), 1):
        if not isinstance(said, dict):
            report.fail(f"summary: game {n} of the bundle's scoresheet is {canonical_json(said)}")
            return
        totals = [g["scores"][s] + g["bonuses"][s] for s in (0, 1)]
        scores = _pair(said.get("scores"), ids)
        if "scores" in said and scores not in (g["scores"], totals):  # with or without bonuses
            report.fail(
                f"summary: game {n} scores are {scores} in the bundle, the events give {totals}"
            )
            return
        winner = ids.get(g["winner"]) if g["winner"] is not None else None
        want = {"game": n, "bonuses": g["bonuses"], "closed": winner is not None, "winner": winner}
        for key, value in want.items():
            if key in said and _pair(said[key], ids) != value:
                report.fail(
                    f"summary: game {n} {key} {_is(key)} {canonical_json(said[key])} in the bundle,"
                    f" the events give {canonical_json(_as_shown(value, said[key], ids))}"
                )
                return
    games_won = [sum(1 for g in sheet.games if g["winner"] == s) for s in (0, 1)]
    totals = [sum(g["scores"][s] + g["bonuses"][s] for g in sheet.games) for s in (0, 1)]
    for key, value in (("games_won", games_won), ("totals", totals)):
        if key in summary and _pair(summary[key], ids) != value:
            report.fail(
                f"summary: the scoresheet's {key} are {canonical_json(summary[key])} in the"
                f" bundle, the events give {canonical_json(_as_shown(value, summary[key], ids))}"
            )
            return


def _is(key: str) -> str:
    return "are" if key.endswith("s") else "is"


def _seat_ids(bundle: dict[str, Any]) -> dict[int, Any]:
    """Each seat's player id, as the bundle names the players (checked by check_header)."""
    players = bundle["match"].get("players")
    return {p.get("seat"): p.get("id") for p in players or [] if isinstance(p, dict)}


def _pair(value: Any, ids: dict[int, Any]) -> Any:
    """A value per player, shown as a dict by player id, as [seat 0's, seat 1's]; any other
    value as it is."""
    keys = [str(ids.get(0)), str(ids.get(1))]
    if isinstance(value, dict) and sorted(value) == sorted(keys) and len(set(keys)) == 2:
        return [value[keys[0]], value[keys[1]]]
    return value


def _as_shown(value: Any, like: Any, ids: dict[int, Any]) -> Any:
    """`value` ([seat 0's, seat 1's]) by player id when the bundle shows `like` that way."""
    if isinstance(like, dict) and isinstance(value, list) and len(value) == 2:
        return {str(ids.get(0)): value[0], str(ids.get(1)): value[1]}
    return value


# A hand's result in the bundle's `hands` list, compared where the entry has it; a flag
# (voided afterwards, recorded after the match's end) left out means false.
_RESULT_KEYS = ("kind", "knocker", "winner", "points", "knocker_deadwood", "defender_deadwood")
_FLAGS = ("voided", "after_end")


def _hand_summaries(referee: Referee, ids: dict[int, Any]) -> list[dict[str, Any]]:
    """What the bundle's `hands` list must say: one entry per hand over, in order, then the
    hand in play when the match ended, if any (kind "unfinished"). Players by id."""
    sheet, games, _ = referee.derived()

    def pid(seat: Any) -> Any:
        return ids.get(seat) if seat is not None else None

    out = []
    for place, record in enumerate(referee.records):
        want: dict[str, Any] = {"hand_number": record["hand_number"]}
        if sheet.dealers[place] is not None:  # a table hand after the end: not re-derived
            want["dealer"] = pid(sheet.dealers[place])
        for key in _RESULT_KEYS:
            value = record.get(key)
            want[key] = pid(value) if key in ("knocker", "winner") else value
        want["games"] = games[place] or []
        want["voided"] = bool(record.get("voided"))
        want["after_end"] = games[place] is None
        void = record.get("void") or {}
        if record["kind"] == "voided":  # voided in play: the record says why and by whom
            want["reason"], want["by"] = void.get("reason"), void.get("by")
        past = void if record.get("voided") else {}  # voided afterwards
        want["void_reason"], want["void_by"] = past.get("reason"), past.get("by")
        want["corrections"] = [_correction_of(c, ids) for c in record.get("corrections", [])]
        if record.get("cards"):
            want.update(_cards_of(record["cards"], ids))
        out.append(want)
    if referee.unfinished is not None:
        hand = referee.unfinished
        out.append(
            {
                "hand_number": hand["number"],
                "dealer": pid(hand["dealer"]),
                "kind": "unfinished",
                **_cards_of(hand, ids),
            }
        )
    return out


def _correction_of(correction: dict[str, Any], ids: dict[int, Any]) -> dict[str, Any]:
    """A HandCorrected event as a hand entry's `corrections` repeat it: the entries before
    and after (players by id), the reason, who (as the event's data names them), the
    event's version and time."""

    def entry(value: dict[str, Any]) -> dict[str, Any]:
        return {
            k: ids.get(v) if k in ("knocker", "winner") and type(v) is int else v
            for k, v in value.items()
        }

    return {
        **correction,
        "before": entry(correction["before"]),
        "after": entry(correction["after"]),
    }


def _instant(value: Any) -> datetime | None:
    """An ISO 8601 time with its offset (`Z` for UTC), as an instant; None if it is not."""
    if not isinstance(value, str):
        return None
    try:
        at = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return at if at.tzinfo is not None else None


def _corrections_differ(number: Any, said: Any, want: list[dict[str, Any]]) -> str | None:
    """How a hand entry's `corrections` (none when left out, as the bundle leaves out an
    empty history) differ from the HandCorrected events of that hand, or None: as many, in
    order, each field the bundle gives equal to the event's."""
    where, listed = f"summary: hand {number}", "in the bundle's hands list"
    if not isinstance(said, list):
        return f"{where}'s corrections are {canonical_json(said)} {listed}, not a list"
    if len(said) != len(want):
        made = ", ".join(str(c["version"]) for c in want)
        return f"{where} has {len(said)} corrections {listed}, the events give {len(want)}" + (
            f" (HandCorrected, event{'s' if len(want) > 1 else ''} {made})" if want else ""
        )
    for n, (got, correction) in enumerate(zip(said, want, strict=True)):
        if not isinstance(got, dict):
            return f"{where}'s corrections[{n}] is {canonical_json(got)} {listed}, not a correction"
        for key, value in correction.items():
            if key not in got or value is None and key in ("version", "at"):
                continue
            mine = got[key]
            if key == "at" and _instant(mine) is not None and _instant(mine) == _instant(value):
                continue
            if mine == value and key != "at":
                continue
            label = f"corrections[{n}].{key}"
            if isinstance(mine, dict) and isinstance(value, dict):  # name the inner field
                inner = next(k for k in sorted({*mine, *value}) if mine.get(k) != value.get(k))
                label, mine, value = f"{label} {inner}", mine.get(inner), value.get(inner)
            return (
                f"{where}'s {label} {_is(label)} {canonical_json(mine)} {listed},"
                f" the events give {canonical_json(value)}"
            )
    return None


def _cards_of(hand: dict[str, Any], ids: dict[int, Any]) -> dict[str, Any]:
    """A dealt hand's cards at its end, its knock and its defence, as a hand entry shows
    them (each hand sorted here: the entry's order is not a claim about the hand)."""
    out: dict[str, Any] = {
        "hands": {str(ids.get(s)): sorted(hand["cards"][s]) for s in (0, 1)},
        "stock": list(hand["stock"]),
        "discard_pile": list(hand["pile"]),
    }
    for key in ("knock", "defence"):
        data = hand.get(key)
        out[key] = {**data, "player": ids.get(data["seat"])} if data is not None else None
    return out


def _check_hands(bundle: dict[str, Any], referee: Referee, report: Report) -> None:
    """The bundle's `hands` list against the hands the events end (where the rules check
    reached: up to a hand still in play)."""
    if "hands" not in bundle:
        return
    listed, want = bundle["hands"], _hand_summaries(referee, _seat_ids(bundle))
    if not isinstance(listed, list) or len(listed) != len(want):
        count = len(listed) if isinstance(listed, list) else "no"
        report.fail(
            f"summary: {count} entries in the bundle's hands list, the events end {len(want)} hands"
        )
        return
    for entry, expected in zip(listed, want, strict=True):
        number = expected["hand_number"]
        if not isinstance(entry, dict):
            report.fail(f"summary: hand {number} in the bundle's hands list is not a hand")
            return
        for key, value in expected.items():
            if key == "corrections":
                failure = _corrections_differ(number, entry.get(key, []), value)
                if failure is not None:
                    report.fail(failure)
                    return
                continue
            if key in _FLAGS:
                said = bool(entry.get(key))
            elif key not in entry:
                continue
            elif key == "hands" and isinstance(entry[key], dict):
                said = {k: sorted(v) if isinstance(v, list) else v for k, v in entry[key].items()}
            else:
                said = entry[key]
            if said != value:
                if isinstance(said, dict) and isinstance(value, dict):  # name the inner field
                    inner = next(k for k in sorted({*said, *value}) if said.get(k) != value.get(k))
                    key, said, value = f"{key} {inner}", said.get(inner), value.get(inner)
                report.fail(
                    f"summary: hand {number}'s {key} {_is(key)} {canonical_json(said)} in the"
                    f" bundle's hands list, the events give {canonical_json(value)}"
                )
                return
    report.ok(f"summary: the {len(want)} hands listed are the hands the events end")


# ----------------------------------------------------------------------------- running


def verify(bundle: dict[str, Any]) -> tuple[bool, list[str]]:
    """(every check passed, the report's lines)."""
    report = Report()
    if bundle.get("format") != FORMAT:
        report.fail(f"unknown bundle format {bundle.get('format')!r} (expected {FORMAT!r})")
        return False, report.lines
    match = bundle["match"]
    report.lines.append(
        f"match {match['id']} ({match['stream_id']}), {len(bundle['events'])} events"
    )
    check_numbering(bundle, report)
    check_chain(bundle, report)
    check_texts(bundle, report)
    check_header(bundle, report)
    check_commitments(bundle, report)
    check_rules(bundle, report)
    summary = bundle.get("scoresheet")
    missing = "summary: the bundle has no scoresheet to compare with the events"
    # Checked here too: the rules check stops early at a hand in play or a discrepancy.
    shaped = isinstance(summary, dict) and isinstance(summary.get("games"), list)
    if not shaped and missing not in report.failures:
        report.fail(missing)
    if report.failures:
        report.lines.append(f"VERDICT: FAILED: first discrepancy: {report.failures[0]}")
    else:
        report.lines.append("VERDICT: all checks passed")
    return not report.failures, report.lines


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -I verify_match.py MATCH_AUDIT.json", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            bundle = json.load(f)
    except (OSError, ValueError) as exc:
        print(f"cannot read {argv[1]}: {exc}", file=sys.stderr)
        return 2
    try:
        ok, lines = verify(bundle)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        print(f"VERDICT: FAILED: not an audit bundle of this format ({exc!r})")
        return 1
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
