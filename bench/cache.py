"""The cost of the one cache class (core.memo.Memo) against the hand-rolled pattern it
replaced (an OrderedDict, a lock, a time stamp per entry and an eviction loop on each put,
as games/repository.py had for its remembered states).

The workload is a worker's remembered states: a bound of 256 entries, 300 streams in turn
(so puts push entries out), each action one get (the load) and one put (the save). Each
cost is the best of `--repeat` runs of `--ops` calls, the two caches measured alternately
in the same process; ns per call and the ratio Memo / old are printed.

    .venv/bin/python bench/cache.py [--ops 200000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.memo import Memo  # noqa: E402

BOUND, IDLE, STREAMS = 256, 300.0, 300


class Old:
    """The pattern the class replaced, as it was in games/repository.py."""

    def __init__(self) -> None:
        self.entries: OrderedDict[str, tuple[object, float]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> object | None:
        with self.lock:
            kept = self.entries.get(key)
        return None if kept is None else kept[0]

    def put(self, key: str, value: object) -> None:
        now = time.monotonic()
        with self.lock:
            self.entries[key] = (value, now)
            self.entries.move_to_end(key)
            while self.entries and (
                len(self.entries) > BOUND or next(iter(self.entries.values()))[1] < now - IDLE
            ):
                self.entries.popitem(last=False)


def _best(run: Callable[[], None], ops: int, repeat: int) -> float:
    """ns per call, the best of `repeat` runs of `ops` calls."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, (time.perf_counter() - started) / ops * 1e9)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    keys = [f"match-{n}" for n in range(STREAMS)]
    sequence = [keys[n % STREAMS] for n in range(args.ops)]
    old, memo = Old(), Memo(maxsize=BOUND, idle=IDLE)
    for cache in (old, memo):
        for key in keys:
            cache.put(key, key)

    def puts(cache: Old | Memo) -> Callable[[], None]:
        def run() -> None:
            for key in sequence:
                cache.put(key, key)

        return run

    def gets(cache: Old | Memo) -> Callable[[], None]:
        hits = keys[-BOUND // 2 :]  # kept: the most recently put
        hit_sequence = [hits[n % len(hits)] for n in range(args.ops)]

        def run() -> None:
            for key in hit_sequence:
                cache.get(key)

        return run

    figures: dict[str, dict[str, float]] = {"get (hit)": {}, "put (with evictions)": {}}
    for _ in range(2):  # alternate: each cache measured twice, the best kept
        for name, cache in (("old", old), ("Memo", memo)):
            for label, make in (("get (hit)", gets), ("put (with evictions)", puts)):
                cost = _best(make(cache), args.ops, args.repeat)
                figures[label][name] = min(figures[label].get(name, cost), cost)
    print(f"{'call':<22} {'old ns':>8} {'Memo ns':>8} {'Memo/old':>9}")
    for label, costs in figures.items():
        ratio = costs["Memo"] / costs["old"]
        print(f"{label:<22} {costs['old']:>8.0f} {costs['Memo']:>8.0f} {ratio:>8.1f}x")


if __name__ == "__main__":
    main()
