"""What the action API's plain-body check (games/fastpath.py) saves per action: validating
the bodies a bot match sends with ActionInputSerializer, against `action_input_plain`.
No database: only the validation of the request body is timed (CPU time, best of
--repeats runs of --number bodies each).

    .venv/bin/python bench/action_input.py [--number 20000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from games.fastpath import action_input_plain  # noqa: E402
from games.serializers import ActionInputSerializer  # noqa: E402

# The shapes a match's actions take, about as often as bots send them.
BODIES = [
    {"type": "draw", "source": "stock", "expected_version": 12},
    {"type": "discard", "card": "7H", "expected_version": 13},
    {"type": "draw", "source": "discard", "expected_version": 14},
    {"type": "discard", "card": "KS", "expected_version": 15},
    {"type": "knock", "card": "2C", "expected_version": 16},
    {"type": "pass", "expected_version": 3},
]


def _serializer(body: dict) -> dict:
    data = ActionInputSerializer(data=body)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def _best(fn, number: int, repeats: int) -> float:
    """Best CPU seconds per body over `repeats` runs."""
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        for i in range(number):
            fn(BODIES[i % len(BODIES)])
        best = min(best, time.process_time() - started)
    return best / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    for body in BODIES:
        assert action_input_plain(body) == _serializer(body), body
    slow = _best(_serializer, args.number, args.repeats)
    fast = _best(action_input_plain, args.number, args.repeats)
    print(f"ActionInputSerializer: {slow * 1e6:.1f} us per body")
    print(f"action_input_plain:    {fast * 1e6:.2f} us per body")
    print(f"saved per action:      {(slow - fast) * 1e6:.1f} us ({slow / fast:.0f}x)")


if __name__ == "__main__":
    main()
