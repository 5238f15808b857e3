"""Server time of three pages in English and in Persian, in one run: the desk's round page,
the public tournament page (the wall screen) and a match page.

1. Makes a fresh database holding a Swiss tournament at tables of --players players (names
   from the clubs' languages), round 1 paired and a hand entered at every table.
2. Renders each page --repeats times in each language, interleaved (en, fa, en, fa, ...),
   in process through Django's test client (every middleware, the templates, the
   catalogues, Persian digits, Solar Hijri dates, ICU collation): the server's time from
   request to response, no network.
3. Prints each page's median and p99 per language and the Persian/English ratio of the
   medians (goal: within 1.15x).

    .venv/bin/python bench/pages.py --players 32 --repeats 200
    (DATABASE_URL defaults to postgres://postgres@127.0.0.1:5432/hg_pages_bench)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/hg_pages_bench")

import django  # noqa: E402

from bench._db import ensure_database  # noqa: E402

if os.environ["DATABASE_URL"].startswith("postgres"):
    ensure_database(os.environ["DATABASE_URL"], fresh=True)
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from games.hand_entries import HandEntry  # noqa: E402
from games.services import match_record_hand  # noqa: E402
from players.services import player_create  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import Pairing, Tournament  # noqa: E402

NAMES = [
    "Ștefan", "Ioana", "Mădălina", "Jürgen", "Bärbel", "Žygimantas", "Aušra", "Česlovas",
    "آرش", "پرویز", "ژاله", "گلناز", "Anna", "Boris", "Clara", "Dmitri",
]  # fmt: skip
LANGUAGES = ("en", "fa")


def build(players: int) -> tuple[Tournament, Pairing]:
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_superuser("bench", password="bench-pages-123")
    t = services.tournament_create(
        name="Bench evening", format="swiss", created_by=user, rounds=4, play_mode="table",
        time_zone="Asia/Tehran",
    )  # fmt: skip
    for i in range(players):
        player = player_create(name=f"{NAMES[i % len(NAMES)]} {i + 1}")
        services.tournament_register(tournament_id=t.pk, player=player, by=user)
        services.tournament_check_in(tournament_id=t.pk, player=player, by=user)
    services.tournament_start(tournament_id=t.pk, by=user)
    pairings = list(Pairing.objects.filter(round__tournament=t, player2__isnull=False))
    for p in pairings:
        hand = HandEntry(knocker=p.player1_id, knocker_deadwood=4, defender_deadwood=30)
        match_record_hand(match_id=p.match_id, by=user, hand=hand)
    return Tournament.objects.get(pk=t.pk), pairings[0]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    tournament, pairing = build(args.players)
    client = Client()
    client.force_login(get_user_model().objects.get(username="bench"))
    pages = {
        "desk round page": f"/desk/{tournament.pk}/rounds/1/",
        # The wall screen follows the tournament's language unless ?lang= says otherwise.
        "public tournament page": f"/tournaments/{tournament.pk}/?lang=",
        "match page": f"/matches/{pairing.match_id}/",
    }
    print(f"{args.players} players, {args.repeats} renders of each page in each language")
    print(f"{'page':<24} {'lang':<5} {'median ms':>10} {'p99 ms':>8} {'bytes':>8}")
    worst = 0.0
    for name, url in pages.items():
        times: dict[str, list[float]] = {lang: [] for lang in LANGUAGES}
        sizes: dict[str, int] = {}
        for _ in range(5):  # warm up: templates, catalogues, collators
            for lang in LANGUAGES:
                client.get(_url(url, lang), HTTP_ACCEPT_LANGUAGE=lang)
        for _ in range(args.repeats):
            for lang in LANGUAGES:
                started = time.perf_counter()
                response = client.get(_url(url, lang), HTTP_ACCEPT_LANGUAGE=lang)
                times[lang].append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, (url, response.status_code)
                assert response["Content-Language"] == lang, (url, response["Content-Language"])
                sizes[lang] = len(response.content)
        for lang in LANGUAGES:
            median, p99 = statistics.median(times[lang]), percentile(times[lang], 0.99)
            print(f"{name:<24} {lang:<5} {median:>10.2f} {p99:>8.2f} {sizes[lang]:>8}")
        ratio = statistics.median(times["fa"]) / statistics.median(times["en"])
        worst = max(worst, ratio)
        print(f"{name:<24} fa/en {ratio:>9.2f}x")
    print(f"worst Persian/English ratio of the medians: {worst:.2f}x (goal <= 1.15x)")


def _url(url: str, lang: str) -> str:
    return url + lang if url.endswith("?lang=") else url


if __name__ == "__main__":
    main()
