"""HGX 3, a bracket (a knockout, a double elimination, a Swiss with a top cut): check each
bracket match against the matches feeding it and recompute the final places from the
bracket's results (tools/check_exchange.py says what is checked). The bracket's shape is
the app's (tournaments.pairing.knockout, .double_elimination), written out again here."""

from __future__ import annotations

from .individual import (
    check_individual_pairings,
    compare,
    games_of,
    head_problems,
    individual_standings,
    read_individual,
)

FORMATS = ("knockout", "double_elimination", "swiss")
WAITING = "waiting"


def check_bracket(text):
    """The failures found in an HGX 3 file (an empty list: it passes)."""
    x = read_individual(text)
    problems = head_problems(x, FORMATS)
    b = x["bracket"]
    if not problems and x["format"] == "swiss" and b["top_cut"] not in (4, 8, 16):
        problems.append("092: a Swiss bracket is a top cut of 4, 8 or 16")
    if problems:
        return problems
    bad = problems.append
    rounds = games_of(x, bad)
    table_of = {}  # slot -> (round, table tuple)
    for r, tables in sorted(rounds.items()):
        for t in tables:
            slot = b["slots"].get((r, t[0]))
            if slot is None and (x["format"] != "swiss" or r > b["swiss_rounds"]):
                bad(f"round {r} table {t[0]}: a bracket's table without its match (005)")
            elif slot in table_of:
                bad(f"round {r} table {t[0]}: the bracket's match {slot} played twice")
            elif slot is not None:
                table_of[slot] = (r, t)
    overall = individual_standings(x, rounds)
    order = sorted(overall, key=lambda p: overall[p][0])  # the tiebreak order
    if x["format"] == "double_elimination":
        ranked = ranked_places(order, double_elimination_places(x, table_of, bad))
    elif x["format"] == "knockout":
        ranked = ranked_places(order, knockout_places(x, table_of, 1, bad))
    else:
        swiss = {r: t for r, t in rounds.items() if r <= b["swiss_rounds"]}
        check_individual_pairings(x, swiss, bad)
        swiss_lines = individual_standings(x, swiss)
        ranked = top_cut_places(x, swiss_lines, table_of, bad)
    compare(x, {p: [*ranked.get(p, (0, 0)), *overall[p][2:]] for p in overall}, bad)
    return problems


def ranked_places(order, places):
    """A finished knockout's or double elimination's standing: its places in order, the
    players of one place in the tiebreak order, ranked 1, 2, 3, ... (rank = place)."""
    group = {p: i for i, members in enumerate(places) for p in members}
    ordered = sorted(order, key=lambda p: group.get(p, len(places)))
    return {p: (i, i) for i, p in enumerate(ordered, 1)}


def seed_order(size):
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_round_slots(x, table_of, prefix, bad):
    """The first round's seats from the seeds (004), byes to the top seeds; where pairs were
    kept apart (006) a first-round match may seat other seeds than the seeding's (a double
    elimination's seats, 008, say whom: its byes have no table), its byes still theirs."""
    seeds = x["bracket"]["seeds"]
    size = 1 << max(len(seeds) - 1, 0).bit_length()
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in seed_order(size)]
    seats = x["bracket"]["seats"]
    if seats and len(seats) != size:
        bad(f"008: {len(seats) // 2} first-round matches, not {size // 2}")
    elif seats:
        for i in range(size // 2):
            pair, given = slots[2 * i : 2 * i + 2], seats[2 * i : 2 * i + 2]
            moved = given != pair and not (x["bracket"]["forbidden"] and None not in pair)
            if moved or (None in given) != (None in pair):
                bad(f"{prefix}1-{i + 1}: seats {given}, not the seeding's {pair}")
        slots = list(seats)
    for i in range(size // 2):
        found = table_of.get(f"{prefix}1-{i + 1}")
        pair = slots[2 * i : 2 * i + 2]
        if found is None:
            continue
        _, t = found
        if set(t[1:3]) == set(pair):
            continue
        if x["bracket"]["forbidden"] and None not in pair and t[2] is not None:
            slots[2 * i : 2 * i + 2] = t[1:3]
        else:
            bad(f"{prefix}1-{i + 1}: players {t[1]} and {t[2]}, not the seeding's {pair}")
    seated = [p for p in slots if p is not None]
    if sorted(seated) != sorted(seeds) or len(set(seated)) != len(seated):
        bad("the first round does not seat every seed once")
    return slots, size


def knockout_places(x, table_of, first, bad):  # noqa: C901 - one check a branch
    """A knockout's (a top cut's, from tournament round `first`) places: the champion, the
    final's loser, then the players out in each round, the latest first; each match's
    players the winners of the two matches feeding it (a withdrawn winner's opponent goes
    on by a bye), byes in the first round where the seeding has no player."""
    withdrawn = set(x["bracket"]["withdrawals"])
    slots, size = first_round_slots(x, table_of, "K", bad)
    count = size.bit_length() - 1
    came = [slots[2 * i : 2 * i + 2] for i in range(size // 2)]  # round 1's seats by slot
    out, boards = {}, []
    for r in range(1, count + 1):
        winners = []
        for j, seats in enumerate(came, 1):
            slot, present = f"K{r}-{j}", [p for p in seats if p is not None]
            found = table_of.get(slot)
            if found is None:
                if any(p not in withdrawn for p in present):
                    bad(f"{slot}: {present} never played it")
                winners.append(None)
                continue
            n, t = found
            if n != first + r - 1:
                bad(f"{slot}: played in round {n}, not in the bracket's round {r}")
            players = [p for p in t[1:3] if p is not None]
            if not set(players) <= set(present) or [p for p in present if p in players] != players:
                bad(f"{slot}: players {players} are not the winners feeding it ({present})")
            if len(players) < len(present) and r == 1:
                bad(f"{slot}: a bye the seeding does not give")
            missing = [p for p in present if p not in players]
            if any(p not in withdrawn for p in missing) and r > 1:
                bad(f"{slot}: {missing} left out, who had not withdrawn")
            for p in players:
                out[p] = r + 1
            if t[2] is not None and t[3] in t[1:3]:
                out[t[2] if t[3] == t[1] else t[1]] = r
            elif t[2] is not None:
                bad(f"{slot}: a bracket's match without a winner")
            boards.append(t)
            winners.append(t[3])
        came = [winners[2 * i : 2 * i + 2] for i in range(len(winners) // 2)]
    champion = winners[0] if len(winners) == 1 else None
    if champion is None:
        bad("the knockout has no champion")
        return []
    out.pop(champion, None)
    groups = {}
    for player, number in out.items():
        groups.setdefault(number, []).append(player)
    return [(champion,), *(tuple(sorted(groups[n])) for n in sorted(groups, reverse=True))]


def top_cut_places(x, swiss_lines, table_of, bad):
    """The top cut's one final standing (tournaments.pairing.top_cut.top_cut_standing):
    the knockout's places, a third-place match splitting third, the rest in Swiss order.
    Its qualifiers (004, seed 1 first) are the Swiss's best who had not withdrawn (ties at
    the cut line broken by rating or lots: only a better Swiss place is checked)."""
    b = x["bracket"]
    withdrawn = set(b["withdrawals"])
    swiss_order = sorted(swiss_lines, key=lambda p: swiss_lines[p][0])
    if len(b["seeds"]) > b["top_cut"] or set(b["seeds"]) - set(swiss_order):
        bad("004: the top cut's qualifiers are not players of the Swiss")
        return {}
    worst = max((swiss_lines[q][1] for q in b["seeds"]), default=0)
    passed = [p for p in swiss_order if p not in b["seeds"] and p not in b["withdrawals"]
              and swiss_lines[p][1] < worst]  # fmt: skip
    if passed:
        bad(f"players {passed} placed above a qualifier in the Swiss but did not qualify")
    places = knockout_places(x, table_of, b["swiss_rounds"] + 1, bad)
    if not places:
        return {}
    third = table_of.get("3P")
    if third is not None:
        _, t = third
        semi = (len(b["seeds"]) - 1).bit_length() - 1
        semis = [table_of.get(f"K{semi}-{j}") for j in (1, 2)]
        losers = {s[1][1] if s[1][3] == s[1][2] else s[1][2] for s in semis if s}
        seated = {p for p in t[1:3] if p is not None}
        if not b["third_place"] or not seated <= losers or losers - seated - withdrawn:
            bad("3P: not the semifinals' losers, or no third-place match was to be played")
        loser = t[2] if t[3] == t[1] else t[1]
        third = (t[3], loser) if loser is not None else None
    position = {p: i for i, p in enumerate(swiss_order)}
    ranked, place = {places[0][0]: 1}, 1
    for group in places[1:]:
        members = sorted(group, key=position.__getitem__)
        if third is not None and len(ranked) == 2 and set(members) == set(third):
            ranked |= {third[0]: 3, third[1]: 4}
            continue
        place = len(ranked) + 1
        ranked |= {p: place for p in members}
    if set(ranked) != set(b["seeds"]):
        bad("the top cut's knockout does not account for every qualifier")
    rest = [p for p in swiss_order if p not in ranked]
    count = len(ranked)
    ranked |= {p: count + i for i, p in enumerate(rest, 1)}
    return {p: (place, place) for p, place in ranked.items()}


def drop_offset(k, r):
    """The loser of Wr match i (0-based) drops into L(2r-2) match i XOR drop_offset."""
    width = k - r
    if width <= 0:
        return 0
    return int(format((r - 1) % (1 << width), f"0{width}b")[::-1], 2)


def skeleton(k, reset):
    """Every match of a 2^k double elimination: id -> (bracket, round, wave, sources), a
    source ("slot", W1 seat) or ("winner" | "loser", match id), in the order resolved."""
    size, m = 1 << k, {}
    for r in range(1, k + 1):
        for i in range(size >> r):
            src = (
                (("slot", 2 * i), ("slot", 2 * i + 1))
                if r == 1
                else (("winner", f"W{r - 1}-{2 * i + 1}"), ("winner", f"W{r - 1}-{2 * i + 2}"))
            )
            m[f"W{r}-{i + 1}"] = ("W", r, r, i, src)  # fmt: skip
    for j in range(1, 2 * k - 1):
        if j == 1:
            for i in range(size >> 2):
                src = (("loser", f"W1-{2 * i + 1}"), ("loser", f"W1-{2 * i + 2}"))
                m[f"L1-{i + 1}"] = ("L", 1, 2, i, src)
        elif j % 2 == 0:
            r = j // 2 + 1
            c = drop_offset(k, r)
            for i in range(size >> r):
                src = (("winner", f"L{j - 1}-{i + 1}"), ("loser", f"W{r}-{(i ^ c) + 1}"))
                m[f"L{j}-{i + 1}"] = ("L", j, j + 1, i, src)
        else:
            for i in range(size >> ((j + 3) // 2)):
                src = (("winner", f"L{j - 1}-{2 * i + 1}"), ("winner", f"L{j - 1}-{2 * i + 2}"))
                m[f"L{j}-{i + 1}"] = ("L", j, j + 1, i, src)
    lb = ("winner", f"L{2 * k - 2}-1") if k > 1 else ("loser", "W1-1")
    m["GF1"] = ("GF", 1, 2 * k, 0, (("winner", f"W{k}-1"), lb))
    if reset:
        m["GF2"] = ("GF", 2, 2 * k + 1, 0, (("winner", "GF1"), ("loser", "GF1")))
    return sorted(m.items(), key=lambda kv: (kv[1][2], kv[1][0] != "W", kv[1][3]))


def double_elimination_places(x, table_of, bad):  # noqa: C901 - one rule a branch
    """A double elimination's places (tournaments.pairing.double_elimination): every match
    resolved from the seeds, the results and the withdrawals (a withdrawn player loses what
    they have not played by walkover; both withdrawn: the later goes on); a match with a
    table is played by the players its sources send, after the tables feeding it; a match
    two players should have played has a table; nobody plays once out."""
    b = x["bracket"]
    slots, size = first_round_slots(x, table_of, "W", bad)
    k = size.bit_length() - 1
    out = {p: i for i, p in enumerate(b["withdrawals"])}
    seed = {p: i for i, p in enumerate(b["seeds"])}
    decided, eliminated, gone, champion, gf1_first = {}, {}, {}, None, None
    matches = skeleton(k, b["reset"])
    for slot in set(table_of) - {mid for mid, _ in matches}:
        bad(f"{slot}: the bracket has no such match")
    for mid, (bracket, rnd, _wave, _i, sources) in matches:
        sides = []
        for kind, ref in sources:
            sides.append(slots[ref] if kind == "slot" else decided[ref][kind == "loser"]
                         if ref in decided else WAITING)  # fmt: skip
        found = table_of.get(mid)
        a, c = sides
        if mid == "GF2" and decided.get("GF1", (None,))[0] == gf1_first:
            status, winner, loser = "not_needed", None, None
        elif WAITING in sides:
            status, winner, loser = WAITING, None, None
        elif a is None or c is None:
            status, winner, loser = "bye", (a if c is None else c), None
        elif found is not None:
            n, t = found
            if set(t[1:3]) != {a, c}:
                bad(f"{mid}: players {t[1]} and {t[2]}, not {a} and {c} whom it is fed")
            if t[3] not in (a, c):
                bad(f"{mid}: its winner did not play it")
            first = min((a, c), key=seed.get)
            if t[1] != first:
                bad(f"{mid}: the better seed, {first}, does not deal first")
            for kind, ref in sources:
                if kind != "slot" and ref in table_of and table_of[ref][0] >= n:
                    bad(f"{mid}: played in round {n}, not after {ref} which feeds it")
            status, winner = "played", t[3]
            loser = c if winner == a else a
        elif a in out or c in out:
            both = a in out and c in out
            winner = max((a, c), key=out.__getitem__) if both else (c if a in out else a)
            status, loser = "walkover", c if winner == a else a
        else:
            status, winner, loser = "ready", None, None
            bad(f"{mid}: {a} and {c} never played it")
        if found is not None and status != "played":
            bad(f"{mid}: a table for a match that needs no play ({status})")
        if status not in (WAITING, "ready", "not_needed"):
            decided[mid] = (winner, loser)
        if mid == "GF1":
            gf1_first = a
        out_now = bracket != "W" and not (mid == "GF1" and b["reset"] and loser != c)
        if loser is not None and out_now:
            eliminated[loser] = (bracket == "GF", 0 if bracket == "GF" else rnd)
            champion = winner if bracket == "GF" else champion
            if found is not None:
                gone[loser] = found[0]
    for mid, (n, t) in table_of.items():
        for p in t[1:3]:
            if p in gone and n > gone[p]:
                bad(f"{mid}: player {p} plays in round {n}, out since round {gone[p]}")
    if champion is None:
        bad("the double elimination has no champion")
        return []
    groups = {}
    for player, key in eliminated.items():
        groups.setdefault(key, []).append(player)
    return [(champion,), *(tuple(sorted(groups[key])) for key in sorted(groups, reverse=True))]
