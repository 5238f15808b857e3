"""Swiss pairing speed and quality on realistic score tables.

For each field size: give players Elo-like ratings, play `--rounds` rounds (default 4) with
swiss_pair and random results weighted by rating, then time the pairing of the next round.
Prints the time, the rematches made, the fewest rematches any pairing could have had
(0 = a rematch-free pairing existed, so any rematch would have been avoidable), and the
players floated down (up) who had floated down (up) in the round before.

    .venv/bin/python bench/pairing.py [--sizes 64 256 1024 4096] [--rounds 4] [--seed 1]
        [--format-sizes 1024 4096] [--top-cut 8]

Targets: 1,024 players under 1 s, 4,096 under 10 s, no avoidable rematch.

Then, for each of `--format-sizes`: a double elimination played wave by wave (random
winners weighted by rating; each wave's answer, `double_elimination`, timed), and the top
cut of the Swiss above (`--top-cut` players after `--rounds` rounds: the cut from the
standings' tied groups, then each knockout round, then the final standing, each timed).
Target: every wave / step under 1 s at 4,096 players.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing import (  # noqa: E402
    Result,
    SwissPlayer,
    count_rematches,
    double_elimination,
    knockout_first_round,
    knockout_next_round,
    min_rematches,
    swiss_order,
    swiss_pair,
    tied_groups,
    top_cut_seeds,
    top_cut_standing,
)

TARGETS = {1024: 1.0, 4096: 10.0}
FORMAT_TARGET = 1.0  # seconds, per wave or step, at any size measured


class Event:
    def __init__(self, n: int, rng: random.Random) -> None:
        self.rng = rng
        self.rating = {p: rng.gauss(1500, 200) for p in range(1, n + 1)}
        self.score: Counter[int] = Counter()
        self.played: set[frozenset[int]] = set()
        self.had_bye: set[int] = set()
        self.dealt_first: Counter[int] = Counter()
        self.results: list[Result] = []

    def field(self) -> list[SwissPlayer]:
        # Rank by score, then rating (a stand-in for the caller's tiebreaks), then id.
        order = sorted(self.rating, key=lambda p: (-self.score[p], -self.rating[p], p))
        return [SwissPlayer(id=p, score=self.score[p], rank=r) for r, p in enumerate(order, 1)]

    def pair(self):
        return swiss_pair(
            players=self.field(),
            played=self.played,
            had_bye=self.had_bye,
            dealt_first=dict(self.dealt_first),
            results=self.results,
        )

    def floats(self, pairs) -> tuple[set[int], set[int]]:
        """Who these pairs float down and up (a bye is a down-float)."""
        down, up = set(), set()
        for pair in pairs:
            if pair.second is None:
                down.add(pair.first)
            elif self.score[pair.first] != self.score[pair.second]:
                high, low = sorted(pair.players, key=lambda p: -self.score[p])
                down.add(high)
                up.add(low)
        return down, up

    def play(self, pairs) -> None:
        number = len({r.round for r in self.results}) + 1
        for pair in pairs:
            if pair.second is None:
                self.had_bye.add(pair.first)
                self.score[pair.first] += 1
                self.results.append(Result(number, pair.first, None, pair.first))
                continue
            a, b = pair.first, pair.second
            expected_a = 1 / (1 + 10 ** ((self.rating[b] - self.rating[a]) / 400))
            winner = a if self.rng.random() < expected_a else b
            self.score[winner] += 1
            self.results.append(Result(number, a, b, winner))
            self.played.add(frozenset((a, b)))
            self.dealt_first[a] += 1


def measure(n: int, rounds: int, seed: int) -> dict:
    event = Event(n, random.Random(seed * 100_003 + n))
    last: tuple[set[int], set[int]] = (set(), set())
    for _ in tqdm(range(rounds), desc=f"{n} players: rounds", leave=False):
        pairs = event.pair()
        last = event.floats(pairs)
        event.play(pairs)
    field = event.field()
    before = set(event.played)
    started = time.perf_counter()
    pairs = event.pair()
    seconds = time.perf_counter() - started
    groups = Counter(p.score for p in field)
    mixed = sum(
        1 for p in pairs if p.second is not None and event.score[p.first] != event.score[p.second]
    )
    down, up = event.floats(pairs)
    return {
        "players": n,
        "seconds": seconds,
        "rematches": count_rematches(pairs, before),
        "fewest_possible": min_rematches(players=field, played=before, had_bye=event.had_bye),
        "score_groups": len(groups),
        "cross_group_pairs": mixed,
        "repeated_down": len(down & last[0]),
        "repeated_up": len(up & last[1]),
    }


def _winner(event: Event, a: int, b: int) -> int:
    expected_a = 1 / (1 + 10 ** ((event.rating[b] - event.rating[a]) / 400))
    return a if event.rng.random() < expected_a else b


def measure_double_elimination(n: int, seed: int) -> dict:
    event = Event(n, random.Random(seed * 100_003 + n))
    seeded = sorted(event.rating, key=lambda p: -event.rating[p])
    results: dict[str, int] = {}
    times = []
    waves = 0
    while True:
        started = time.perf_counter()
        state = double_elimination(seeded=seeded, results=results)
        times.append(time.perf_counter() - started)
        if state.over:
            break
        waves += 1
        for match in state.next_wave:
            results[match.id] = _winner(event, *match.players)
    return {
        "players": n,
        "waves": waves,
        "matches": len(results),
        "slowest": max(times),
        "total": sum(times),
    }


def measure_top_cut(n: int, rounds: int, seed: int, cut: int) -> dict:
    event = Event(n, random.Random(seed * 100_003 + n))
    for _ in range(rounds):
        event.play(event.pair())
    players = sorted(event.rating)
    steps = []
    started = time.perf_counter()
    groups = tied_groups(
        players=players, results=event.results, tiebreaks=("match_wins", "buchholz")
    )
    order = swiss_order(swiss_groups=groups, rating=event.rating)
    seeds = top_cut_seeds(swiss_groups=groups, size=cut, rating=event.rating)
    steps.append(time.perf_counter() - started)
    knockout = []
    pairs = knockout_first_round(seeds)
    while True:
        started = time.perf_counter()
        matches = []
        for pair in pairs:
            if pair.second is None:
                matches.append((pair.first, None))
                continue
            winner = _winner(event, pair.first, pair.second)
            matches.append((winner, pair.second if winner == pair.first else pair.first))
        knockout.append(matches)
        pairs = knockout_next_round([w for w, _ in matches])
        steps.append(time.perf_counter() - started)
        if not pairs:
            break
    started = time.perf_counter()
    table = top_cut_standing(order=order, seeds=seeds, knockout_rounds=knockout)
    steps.append(time.perf_counter() - started)
    return {
        "players": n,
        "cut": cut,
        "knockout_rounds": len(knockout),
        "slowest": max(steps),
        "champion_seed": seeds.index(table[0].player) + 1,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024, 4096])
    parser.add_argument("--rounds", type=int, default=4, help="rounds played before timing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--format-sizes", type=int, nargs="*", default=[1024, 4096])
    parser.add_argument("--top-cut", type=int, default=8, choices=[4, 8, 16])
    args = parser.parse_args()
    rows = [measure(n, args.rounds, args.seed) for n in tqdm(args.sizes, desc="sizes")]
    print(f"Swiss pairing of round {args.rounds + 1} after {args.rounds} simulated rounds")
    print(
        f"{'players':>8} {'seconds':>9} {'rematches':>10} {'fewest possible':>16} "
        f"{'free possible':>14} {'groups':>7} {'cross-group':>12} {'repeat down/up':>15} "
        f"{'target':>8}"
    )
    ok = True
    for row in rows:
        target = TARGETS.get(row["players"])
        met = (target is None or row["seconds"] < target) and (
            row["rematches"] == row["fewest_possible"]
        )
        ok &= met
        print(
            f"{row['players']:>8} {row['seconds']:>9.4f} {row['rematches']:>10} "
            f"{row['fewest_possible']:>16} {'yes' if row['fewest_possible'] == 0 else 'no':>14} "
            f"{row['score_groups']:>7} "
            f"{row['cross_group_pairs']:>12} "
            f"{str(row['repeated_down']) + '/' + str(row['repeated_up']):>15} "
            f"{f'<{target:g}s' if target else '-':>8}"
            f"{'' if met else '  MISSED'}"
        )
    if args.format_sizes:
        print()
        print("Double elimination, played wave by wave (the answer for each wave timed)")
        print(f"{'players':>8} {'waves':>6} {'matches':>8} {'slowest wave':>13} {'all waves':>10}")
        for n in args.format_sizes:
            row = measure_double_elimination(n, args.seed)
            met = row["slowest"] < FORMAT_TARGET
            ok &= met
            print(
                f"{n:>8} {row['waves']:>6} {row['matches']:>8} {row['slowest']:>12.4f}s "
                f"{row['total']:>9.3f}s{'' if met else '  MISSED'}"
            )
        print()
        print(
            f"Top cut of {args.top_cut} after {args.rounds} Swiss rounds (cut, each knockout "
            "round, final standing timed)"
        )
        print(
            f"{'players':>8} {'cut':>4} {'knockout rounds':>16} {'slowest step':>13} "
            f"{'champion seed':>14}"
        )
        for n in args.format_sizes:
            row = measure_top_cut(n, args.rounds, args.seed, args.top_cut)
            met = row["slowest"] < FORMAT_TARGET
            ok &= met
            print(
                f"{n:>8} {row['cut']:>4} {row['knockout_rounds']:>16} {row['slowest']:>12.4f}s "
                f"{row['champion_seed']:>14}{'' if met else '  MISSED'}"
            )
    print("all targets met" if ok else "SOME TARGETS MISSED")


if __name__ == "__main__":
    main()
