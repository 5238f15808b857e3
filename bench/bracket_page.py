"""What drawing a bracket costs a page: a double elimination of each size half played
(random winners until the grand final's wave), its bracket data (`double_elimination`, as
the selector answers it), laid out (`web.brackets.bracket_layout`) and rendered
(`web/_bracket.html`). No database. Prints, per size, the matches, the layout and render
times (best of --repeats) and the HTML's size.

    .venv/bin/python bench/bracket_page.py [--sizes 16 64 256 1024] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from django.template.loader import render_to_string  # noqa: E402

from tournaments.pairing import double_elimination  # noqa: E402
from web.brackets import bracket_layout  # noqa: E402


def half_played(size: int, rng: random.Random) -> dict:
    seeded = list(range(1, size + 1))
    results: dict[str, int] = {}
    bracket = double_elimination(seeded=seeded, results=results)
    while bracket.next_wave and bracket.next_wave[0].bracket != "GF":
        for m in bracket.next_wave:
            results[m.id] = rng.choice([p for p in m.players if p is not None])
        bracket = double_elimination(seeded=seeded, results=results)
    return {
        "format": "double_elimination",
        "matches": [m.as_data() for m in bracket.matches],
        "champion": bracket.champion,
    }


def best(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 256, 1024])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(1)
    print(f"{'players':>8} {'matches':>8} {'layout ms':>10} {'render ms':>10} {'HTML kB':>8}")
    for size in args.sizes:
        data = half_played(size, rng)
        names = {p: f"Player {p:04d}" for p in range(1, size + 1)}
        layout_s, drawn = best(lambda: bracket_layout(data, names), args.repeats)  # noqa: B023
        render_s, html = best(
            lambda: render_to_string("web/_bracket.html", {"bracket": drawn}),  # noqa: B023
            args.repeats,
        )
        print(
            f"{size:>8} {len(data['matches']):>8} {layout_s * 1000:>10.1f} "
            f"{render_s * 1000:>10.1f} {len(str(html).encode()) / 1024:>8.0f}"
        )


if __name__ == "__main__":
    main()
