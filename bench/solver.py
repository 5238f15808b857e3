"""Deadwood solver speed against two public gin rummy engines.

Builds meld-rich random 11-card hands (fixed seed) and computes, for each, the least
deadwood left after the best discard, with:
  (a) ours: games.engine.melds.best_discard_mask (one search on a 52-bit mask), and the
      public best_discard on card codes;
  (b) rlcard: rlcard.games.gin_rummy.utils.melding.get_best_meld_clusters on each of the
      11 ten-card hands left by a discard, scored with utils.get_deadwood_count;
  (c) OpenSpiel: pyspiel.gin_rummy.GinRummyUtils.min_deadwood (C++) on each of those
      11 ten-card hands.
Each solver gets its input already converted to its own card representation; only the
solving is timed. Prints hands/second, our ratio to each peer, and the number of hands on
which any two solvers disagree (must be 0).

    .venv/bin/python bench/solver.py [--hands 20000] [--seed 7]

Peers: .venv/bin/pip install rlcard open-spiel   (the `bench` extra of pyproject.toml)
Targets: at least 10x rlcard's rate and at least OpenSpiel's.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import FULL_DECK, RANKS, SUITS, to_mask  # noqa: E402
from games.engine.melds import best_discard, best_discard_mask  # noqa: E402

Solver = Callable[[object], int]


# ------------------------------------------------------------------------------ hands


def meld_rich_hand(rng: random.Random) -> list[str]:
    """Eleven cards: one in four hands is a plain deal; the others are grown from runs,
    sets and near-melds (two of a run, two of a kind) and topped up at random."""
    if rng.random() < 0.25:
        return rng.sample(FULL_DECK, 11)
    cards: list[str] = []
    for _ in range(rng.randint(2, 4)):
        for card in _group(rng):
            if card not in cards:
                cards.append(card)
    cards = cards[:11]
    while len(cards) < 11:
        card = rng.choice(FULL_DECK)
        if card not in cards:
            cards.append(card)
    rng.shuffle(cards)
    return cards


def _group(rng: random.Random) -> list[str]:
    if rng.random() < 0.55:  # a run (or two cards of one)
        suit = rng.choice(SUITS)
        low = rng.randrange(13)
        return [RANKS[r] + suit for r in range(low, min(low + rng.randint(2, 5), 13))]
    rank = rng.choice(RANKS)  # a set (or a pair)
    return [rank + suit for suit in rng.sample(SUITS, rng.randint(2, 4))]


# ---------------------------------------------------------------------------- solvers


def ours_mask() -> tuple[Callable[[list[str]], object], Solver]:
    return to_mask, lambda mask: best_discard_mask(mask)[1]


def ours_codes() -> tuple[Callable[[list[str]], object], Solver]:
    return list, lambda cards: best_discard(cards)[1]


def rlcard_solver() -> tuple[Callable[[list[str]], object], Solver]:
    from rlcard.games.gin_rummy.utils import melding, utils

    def convert(cards: list[str]) -> object:
        return [utils.card_from_text(code) for code in cards]

    def solve(hand: object) -> int:
        best = 1 << 30
        for i in range(len(hand)):
            ten = hand[:i] + hand[i + 1 :]
            clusters = melding.get_best_meld_clusters(hand=ten)
            if clusters:
                best = min(best, utils.get_deadwood_count(hand=ten, meld_cluster=clusters[0]))
            else:
                best = min(best, sum(utils.get_deadwood_value(card) for card in ten))
        return best

    return convert, solve


def openspiel_solver() -> tuple[Callable[[list[str]], object], Solver]:
    import pyspiel

    gin = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    # OpenSpiel numbers cards suit * 13 + rank with the suits in the order s c d h.
    suit_index = {"S": 0, "C": 1, "D": 2, "H": 3}

    def convert(cards: list[str]) -> object:
        return [suit_index[code[1]] * 13 + RANKS.index(code[0]) for code in cards]

    def solve(hand: object) -> int:
        return min(gin.min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))

    return convert, solve


SOLVERS = {
    "ours (mask)": (ours_mask, None),
    "ours (codes)": (ours_codes, None),
    "rlcard": (rlcard_solver, "rlcard"),
    "openspiel": (openspiel_solver, "open-spiel"),
}


# ------------------------------------------------------------------------------- main


def run(name: str, build, hands: list[list[str]], chunk: int = 500) -> tuple[float, list[int]]:
    convert, solve = build()
    inputs = [convert(hand) for hand in hands]
    results: list[int] = []
    elapsed = 0.0
    with tqdm(total=len(inputs), desc=f"{name:>13}", unit="hand") as bar:
        for start in range(0, len(inputs), chunk):
            part = inputs[start : start + chunk]
            # CPU time of this process, around the solving only (not the progress bar):
            # the figures stay comparable on a busy machine.
            began = time.process_time()
            answers = [solve(item) for item in part]
            elapsed += time.process_time() - began
            results += answers
            bar.update(len(part))
    return len(hands) / elapsed, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = [meld_rich_hand(rng) for _ in range(args.hands)]

    rates: dict[str, float] = {}
    answers: dict[str, list[int]] = {}
    for name, (build, package) in SOLVERS.items():
        try:
            rates[name], answers[name] = run(name, build, hands)
        except ImportError:
            print(f"{name}: not installed, skipped (.venv/bin/pip install {package})")

    print(f"\n{args.hands} meld-rich 11-card hands, seed {args.seed}:", end=" ")
    print("least deadwood after the best discard")
    for name, rate in rates.items():
        ratios = (
            ""
            if name.startswith("ours")
            else "   ours is "
            + ", ".join(
                f"{rates[mine] / rate:.1f}x {mine[6:-1]}"
                for mine in rates
                if mine.startswith("ours")
            )
        )
        print(f"  {name:>13}: {rate:12,.0f} hands/s{ratios}")
    names = list(answers)
    disagree = sum(1 for row in zip(*answers.values(), strict=True) if len(set(row)) > 1)
    print(f"  hands where any two of {', '.join(names)} disagree: {disagree}")
    if disagree:
        sys.exit(1)


if __name__ == "__main__":
    main()
