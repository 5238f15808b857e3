"""HGX 2, an individual tournament (and the Swiss rounds of an HGX 3 file's top cut): read
the file, check its tables, pairings, dealers and standings (tools/check_exchange.py says
what is checked)."""

from __future__ import annotations

from .common import BLOCK, FIRST, Unreadable, min_rematches, num, real

BRACKET_CODES = ("092", "004", "005", "006", "007", "008")


def read_individual(text):
    """The file as a dict; an HGX 3 file's bracket records under "bracket" (else None)."""
    lines = text.splitlines()
    head, players, standing = {}, {}, {}
    bracket = {"seeds": [], "slots": {}, "forbidden": [], "withdrawals": [], "seats": []}
    if lines[0].strip() != "HGX 3":
        bracket = None
    for n, line in enumerate(lines[1:], start=2):
        code, where = line[:3], f"line {n}"
        if code in ("012", "022", "032", "062", "072"):
            head[code] = line[4:].strip()
        elif code == "001":
            start = num(line[4:8], where)
            blocks = {}
            for r in range(1, (len(line) - FIRST + BLOCK - 1) // BLOCK + 1):
                block = line[FIRST + BLOCK * (r - 1) : FIRST + BLOCK * r]
                if block.strip():
                    f = block.split()
                    if len(f) != 7:
                        raise Unreadable(f"{where}: round {r}: seven fields")
                    blocks[r] = (num(f[0], where), num(f[1], where), num(f[2], where), f[3],
                                 f[4], num(f[5], where), num(f[6], where))  # fmt: skip
            players[start] = {"rank": num(line[56:60], where), "blocks": blocks}
        elif code == "002":
            f = line[4:].split()
            if len(f) != 12:
                raise Unreadable(f"{where}: twelve fields")
            values = [num(v, where) for v in f[:7]]
            values += [real(v, where) for v in f[7:10]]
            values += [num(f[10], where), num(f[11], where)]
            standing[values[0]] = values[1:]
        elif bracket is not None and code in BRACKET_CODES:
            read_bracket_record(bracket, line, where)
        elif line.strip():
            raise Unreadable(f"{where}: unknown record {code!r}")
    if bracket is not None and "top_cut" not in bracket:
        raise Unreadable("no 092 record")
    for code in ("022", "032", "062", "072"):
        if code not in head:
            raise Unreadable(f"no {code} record")
    if set(standing) != set(players):
        raise Unreadable("a player without both a 001 and a 002 record")
    bye = head["072"].split()
    if len(bye) != 2:
        raise Unreadable("072: bye points and bye Buchholz")
    return {"format": head["022"], "rounds": num(head["032"], "032"),
            "tiebreaks": head["062"].split(), "bye_points": bye[0], "bye_buchholz": bye[1],
            "players": players, "standing": standing, "bracket": bracket}  # fmt: skip


def read_bracket_record(bracket, line, where):
    """092 settings; 004 seed, 005 slot, 006 pair kept apart, 007 withdrawal, 008 a
    first-round match's seats (the numbered ones in order)."""
    f = line[4:].split()
    if line[:3] == "005":
        if len(f) != 3:
            raise Unreadable(f"{where}: round, table and slot")
        bracket["slots"][(num(f[0], where), num(f[1], where))] = f[2]
        return
    values = [num(v, where) for v in f]
    if line[:3] == "008":
        if len(values) != 3 or values[0] != len(bracket["seats"]) // 2 + 1:
            raise Unreadable(f"{where}: the next match and its two seats")
        bracket["seats"] += [values[1] or None, values[2] or None]
        return
    if line[:3] == "092":
        if len(values) != 4:
            raise Unreadable(f"{where}: reset, third place, top cut, Swiss rounds")
        bracket.update(reset=values[0] == 1, third_place=values[1] == 1, top_cut=values[2],
                       swiss_rounds=values[3])  # fmt: skip
        return
    if len(values) != 2:
        raise Unreadable(f"{where}: two numbers")
    if line[:3] == "006":
        bracket["forbidden"].append(tuple(values))
        return
    listed = bracket["seeds" if line[:3] == "004" else "withdrawals"]
    if values[0] != len(listed) + 1:
        raise Unreadable(f"{where}: {values[0]} out of order")
    listed.append(values[1])


def games_of(x, bad):
    """round -> [(table, player1, player2 or None, winner or None, g1, g2, p1, p2)]."""
    rounds = {}
    outcomes = {("1", "0"): 1, ("0", "1"): 2, ("+", "-"): 1, ("-", "+"): 2, ("=", "="): 0}
    for start, p in sorted(x["players"].items()):
        for r, (other, table, _board, dealer, result, games, points) in p["blocks"].items():
            if other == 0:
                if result != "U" or dealer != "-":
                    bad(f"round {r}: player {start} has no opponent and no bye")
                rounds.setdefault(r, []).append((table, start, None, start, games, 0, points, 0))
                continue
            mine = x["players"].get(other, {}).get("blocks", {}).get(r)
            if mine is None or mine[0] != start or mine[1] != table:
                bad(f"round {r}: player {start} names {other} at table {table}, who does not"
                    " name them back")  # fmt: skip
                continue
            if {dealer, mine[3]} != {"d", "s"}:
                bad(f"round {r} table {table}: not one dealer")
            if (result, mine[4]) not in outcomes:
                bad(f"round {r} table {table}: results {result}/{mine[4]} disagree")
                continue
            if dealer != "d":
                continue  # written once, from the first dealer's (player 1's) side
            side = outcomes[(result, mine[4])]
            winner = (None, start, other)[side]
            rounds.setdefault(r, []).append(
                (table, start, other, winner, games, mine[5], points, mine[6])
            )
    for r, tables in rounds.items():
        seated = [p for t in tables for p in t[1:3] if p is not None]
        if len(seated) != len(set(seated)):
            bad(f"round {r}: a player at two tables")
        if sorted(t[0] for t in tables) != list(range(1, len(tables) + 1)):
            bad(f"round {r}: tables are not 1 to {len(tables)}")
    return rounds


def check_individual_pairings(x, rounds, bad):
    played, byes, first, real = set(), {}, {}, {}
    for r in sorted(rounds):
        tables = rounds[r]
        pairs = [frozenset(t[1:3]) for t in tables if t[2] is not None]
        again = sum(1 for p in pairs if p in played)
        seated = [p for t in tables for p in t[1:3] if p is not None]
        if x["format"] == "round_robin" and again:
            bad(f"round {r}: a round robin pairs a rematch")
        elif again and len(seated) <= 20:
            fewest = min_rematches([p for t in tables if t[2] for p in t[1:3]], frozenset(played))
            if again > fewest:
                bad(f"round {r}: {again} rematches where {fewest} would do")
        for t in tables:
            if t[2] is None:
                if byes.get(t[1]) and any(not byes.get(p) for p in seated):
                    bad(f"round {r}: player {t[1]} has a second bye before everyone had one")
                byes[t[1]] = byes.get(t[1], 0) + 1
                continue
            one, two = t[1], t[2]
            if x["format"] == "swiss" and first.get(one, 0) > first.get(two, 0):
                bad(f"round {r} table {t[0]}: player {one} deals first, having dealt first"
                    f" more often than player {two}")  # fmt: skip
        for t in tables:
            if t[2] is not None:
                first[t[1]] = first.get(t[1], 0) + 1
                for p in t[1:3]:
                    real[p] = real.get(p, 0) + 1
        played |= set(pairs)
    if x["format"] == "round_robin":
        for p, g in sorted(real.items()):
            if first.get(p, 0) not in (g // 2, (g + 1) // 2):
                bad(f"player {p} deals first in {first.get(p, 0)} of {g} matches")
        n = len(x["players"])
        if not any(s[-1] for s in x["standing"].values()) and len(played) != n * (n - 1) // 2:
            bad("the round robin does not pair every two players once")


def individual_standings(x, rounds):
    """start -> [rank, place, wins, played, games, diff, bh, sb, mbh, byes], for the players
    at a table in `rounds` (a double elimination's seed who never was is unranked)."""
    bye_wins = x["bye_points"] == "win"
    seated = {p for tables in rounds.values() for t in tables for p in t[1:3] if p}
    t = {p: {"w": 0, "pl": 0, "g": 0, "d": 0, "y": 0, "opp": [], "beat": [], "drew": [],
             "yr": []} for p in x["players"] if p in seated}  # fmt: skip
    results = [(r, *g) for r in sorted(rounds) for g in sorted(rounds[r])]
    for r, _table, p1, p2, winner, g1, g2, h1, h2 in results:
        t[p1]["g"] += g1
        t[p1]["d"] += h1 - h2
        if p2 is None:
            t[p1]["y"] += 1
            t[p1]["yr"].append(r)
            t[p1]["w"] += 1 if bye_wins else 0
            continue
        t[p2]["g"] += g2
        t[p2]["d"] += h2 - h1
        for me, other in ((p1, p2), (p2, p1)):
            t[me]["pl"] += 1
            t[me]["opp"].append(other)
        if winner is None:
            t[p1]["drew"].append(p2)
            t[p2]["drew"].append(p1)
        else:
            t[winner]["w"] += 1
            t[winner]["beat"].append(p2 if winner == p1 else p1)
    wins = {p: v["w"] for p, v in t.items()}
    last = max(rounds, default=0)
    rows = {}
    for p, v in t.items():
        opp = [float(wins[o]) for o in v["opp"]]
        if x["bye_buchholz"] == "virtual_opponent":
            for yr in v["yr"]:
                before = sum(1 for r, _t, a, b, w, *_ in results
                             if r < yr and w == p and (b is not None or bye_wins))  # fmt: skip
                opp.append(before + (0 if bye_wins else 1) + 0.5 * (last - yr))
        bh = float(sum(opp))
        mbh = bh - max(opp) - min(opp) if len(opp) >= 3 else bh
        sb = float(sum(wins[o] for o in v["beat"]) + sum(wins[o] for o in v["drew"]) / 2)
        rows[p] = {"match_wins": v["w"], "played": v["pl"], "games_won": v["g"],
                   "points_diff": v["d"], "buchholz": bh, "sonneborn_berger": sb,
                   "median_buchholz": mbh, "byes": v["y"]}  # fmt: skip
    keys = {p: [] for p in t}
    for tb in x["tiebreaks"]:
        if tb == "head_to_head":
            groups = {}
            for p, k in keys.items():
                groups.setdefault(tuple(k), set()).add(p)
            for members in groups.values():
                for p in members:
                    keys[p].append(sum(1 for b in t[p]["beat"] if b in members))
        else:
            for p in t:
                keys[p].append(rows[p][tb])
    order = sorted(t, key=lambda p: (*(-k for k in keys[p]), p))
    out, place = {}, 0
    for i, p in enumerate(order, 1):
        if i == 1 or keys[p] != keys[order[i - 2]]:
            place = i
        r = rows[p]
        out[p] = [
            i,
            place,
            r["match_wins"],
            r["played"],
            r["games_won"],
            r["points_diff"],
            r["buchholz"],
            r["sonneborn_berger"],
            r["median_buchholz"],
            r["byes"],
        ]
    return out


def check_individual(text):
    """The failures found in an HGX 2 file (an empty list: it passes)."""
    x = read_individual(text)
    problems = head_problems(x, ("swiss", "round_robin"))
    if problems:
        return problems
    rounds = games_of(x, problems.append)
    check_individual_pairings(x, rounds, problems.append)
    compare(x, individual_standings(x, rounds), problems.append)
    return problems


def head_problems(x, formats):
    """The format (one of `formats`) and the tiebreaks: [] when both are known."""
    if x["format"] not in formats:
        return [f"022: {x['format']!r} is not one of {', '.join(formats)}"]
    known = {"match_wins", "games_won", "points_diff", "buchholz", "sonneborn_berger",
             "median_buchholz", "head_to_head"}  # fmt: skip
    if set(x["tiebreaks"]) - known:
        return [f"062: unknown tiebreaks {sorted(set(x['tiebreaks']) - known)}"]
    return []


def compare(x, standings, bad):
    """The file's 002 records (and 001 ranks) against the standings recomputed."""
    names = ("rank", "place", "match wins", "played", "games won", "points difference",
             "Buchholz", "Sonneborn-Berger", "median Buchholz", "byes")  # fmt: skip
    for p in sorted(set(x["players"]) - set(standings)):
        if x["standing"][p][:2] != [0, 0]:
            bad(f"player {p}: ranked, but never at a table")
    for p, want in sorted(standings.items()):
        said = x["standing"][p][:10]
        for name, a, b in zip(names, said, want, strict=True):
            if abs(a - b) > 1e-6:
                bad(f"player {p}: the file says {name} {a}; its results make {b}")
        if x["players"][p]["rank"] != want[0]:
            bad(f"player {p}: the 001 rank is not the 002 rank")
