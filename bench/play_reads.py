"""The match stream's work per move, before and after its shared read (issue 23's stream
latency), in one process on PostgreSQL, both ways in the same run, move by move.

For every move of --matches bot matches (played with `match_act`, as the API does), what a
stream-serving process does for the match's two followers (both players) once the commit's
NOTIFY wakes them:
- before (the code until 2026-12-01): each follower read the match row, the whole stream,
  the snapshot with the events since and the head's hash, then built its events and view;
- after: one read of the row and of what was appended since the process's copy of the
  stream (`games.selectors.match_followed`), shared by both followers, then each one's
  events and view from it (`games.streams._messages`).
The states the writer remembered are forgotten before each "before" read, as in a stream
process, which writes nothing. Prints the CPU time (this thread's) and the wall time
(CPU and database) per move for both followers, p50 / p99, the queries per move, and the
ratio after / before, overall and by how long the stream had grown.

    .venv/bin/python bench/play_reads.py [--matches 20] [--moves 3000] [--db hg_bench_play_reads]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._db import ensure_database  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1)))] * 1000, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--db", default="hg_bench_play_reads")
    args = parser.parse_args()
    url = f"postgres://postgres@127.0.0.1:5432/{args.db}"
    ensure_database(url, fresh=True)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.base", DATABASE_URL=url, DEBUG="false",
        CELERY_BROKER_URL="", LOG_LEVEL="WARNING",
    )  # fmt: skip
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from core import live
    from games import repository, selectors, services, streams
    from games.engine.bot import choose_action
    from games.serializers import EventSerializer
    from players.services import player_create

    call_command("migrate", verbosity=0)

    def before(match_id: str, user, after: int) -> int:
        """The stream's read of one follower as it was (games/streams.py `_batch`)."""
        repository.match_states_forget()  # a stream process remembers no written state
        match = selectors.match_get(match_id=match_id)
        events = selectors.match_events_for(match=match, user=user, after=after, as_players=True)
        out = [live.sse(EventSerializer(e).data, event="event", id=e["version"]) for e in events]
        if events:
            out.append(live.sse(selectors.match_view_for(match=match, user=user), event="view"))
        return sum(map(len, out))

    def after_(match_id: str, users, after: int) -> int:
        followed = selectors.match_followed(match_id=match_id)  # shared by the followers
        return sum(
            sum(map(len, streams._messages(followed, user, after, False)[0])) for user in users
        )

    matches = []
    for i in range(args.matches):
        a = player_create(name=f"A{i}", username=f"a{i}")
        b = player_create(name=f"B{i}", username=f"b{i}")
        m = services.match_create(player1=a, player2=b, seed=f"reads-{i}", first_dealer=a)
        matches.append([m, (a, b), m.version])
    for m, _, _ in matches:  # each follower connects: the process's copy starts here
        selectors.match_followed(match_id=str(m.pk))

    rows: list[tuple[int, float, float, float, float]] = []
    queries = {"before": 0, "after": 0, "moves": 0}
    n = 0
    while n < args.moves and matches:
        for entry in list(matches):
            m, users, seen = entry
            state, version = selectors.match_state_at(match=m)
            if state.status != "in_progress":
                matches.remove(entry)
                continue
            player = users[state.turn]
            services.match_act(
                match_id=m.pk, player=player, action=choose_action(state, state.turn),
                expected_version=version,
            )  # fmt: skip
            match_id, viewers = str(m.pk), [u.user for u in users]
            count = n % 50 == 0
            # Interleaved, the order swapped every move: neither way profits from the
            # other's warm caches more than the other does.
            ways = ("before", "after") if n % 2 else ("after", "before")
            took = {}
            for way in ways:
                connection.queries_log.clear()  # its cap (9,000) would stop the count
                with CaptureQueriesContext(connection) as captured:
                    cpu, wall = time.thread_time(), time.perf_counter()
                    if way == "before":
                        sum(before(match_id, u, seen) for u in viewers)
                    else:
                        after_(match_id, viewers, seen)
                    took[way] = (time.thread_time() - cpu, time.perf_counter() - wall)
                if count:
                    queries[way] += len(captured.captured_queries)
            queries["moves"] += count
            entry[2] = selectors.match_state_at(match=m)[1]
            rows.append((entry[2], *took["before"], *took["after"]))
            n += 1
            if n >= args.moves:
                break

    def summary(part: list[tuple]) -> dict:
        cpu_b, wall_b = [r[1] for r in part], [r[2] for r in part]
        cpu_a, wall_a = [r[3] for r in part], [r[4] for r in part]
        return {
            "moves": len(part),
            "cpu_ms_before_p50_p99": [_pct(cpu_b, 0.5), _pct(cpu_b, 0.99)],
            "cpu_ms_after_p50_p99": [_pct(cpu_a, 0.5), _pct(cpu_a, 0.99)],
            "wall_ms_before_p50_p99": [_pct(wall_b, 0.5), _pct(wall_b, 0.99)],
            "wall_ms_after_p50_p99": [_pct(wall_a, 0.5), _pct(wall_a, 0.99)],
            "cpu_after_over_before": round(statistics.mean(cpu_a) / statistics.mean(cpu_b), 3),
            "wall_after_over_before": round(statistics.mean(wall_a) / statistics.mean(wall_b), 3),
        }

    by_length = {}
    for low, high in ((0, 50), (50, 200), (200, 10**9)):
        part = [r for r in rows if low < r[0] <= high]
        if part:
            by_length[f"stream at {low + 1}-{high if high < 10**9 else 'more'} events"] = summary(
                part
            )
    print(
        json.dumps(
            {
                "cores": os.cpu_count(),
                "load_average_1m_at_end": round(os.getloadavg()[0], 1),
                "followers_per_move": 2,
                "queries_per_move_before": round(queries["before"] / max(queries["moves"], 1), 1),
                "queries_per_move_after": round(queries["after"] / max(queries["moves"], 1), 1),
                "all": summary(rows),
                **by_length,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
