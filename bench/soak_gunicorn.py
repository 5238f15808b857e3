"""gunicorn's settings for bench/soak.py: config/gunicorn.py, plus (when SOAK_TRACE_DIR is
set) tracemalloc in each worker, whose growth since a warm baseline is written to
SOAK_TRACE_DIR/<pid>.txt every SOAK_TRACE_EVERY requests, for soak.py to print.

SOAK_MAX_REQUESTS overrides the deployed recycling (0: never recycle, so that growth
shows instead of being cut short by a restart)."""

from __future__ import annotations

import os
import time
import tracemalloc
from pathlib import Path

from config.gunicorn import *  # noqa: F403 - bind, workers, worker_class, max_requests, ...

if "SOAK_MAX_REQUESTS" in os.environ:
    max_requests = int(os.environ["SOAK_MAX_REQUESTS"])
    max_requests_jitter = 0

_TRACE_DIR = os.environ.get("SOAK_TRACE_DIR")
_EVERY = int(os.environ.get("SOAK_TRACE_EVERY", "500"))
_WARM = int(os.environ.get("SOAK_TRACE_WARM", "200"))
_state: dict = {"requests": 0, "baseline": None}


def post_fork(server, worker):  # noqa: ANN001, ARG001 - gunicorn's hook
    if _TRACE_DIR:
        tracemalloc.start(int(os.environ.get("SOAK_TRACE_FRAMES", "1")))


def post_request(worker, req, environ, resp):  # noqa: ANN001, ARG001 - gunicorn's hook
    if not _TRACE_DIR:
        return
    _state["requests"] += 1
    n = _state["requests"]
    if n == _WARM:
        _state["baseline"] = tracemalloc.take_snapshot()
    elif n > _WARM and (n - _WARM) % _EVERY == 0:
        _write_growth(n)


def _write_growth(n: int) -> None:
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    current, peak = tracemalloc.get_traced_memory()
    lines = [
        f"pid {os.getpid()} after {n} requests at {time.strftime('%H:%M:%S')}:"
        f" traced {current / 2**20:.1f} MiB (peak {peak / 2**20:.1f} MiB)"
    ]
    for kind in ("lineno", "traceback"):
        stats = snapshot.compare_to(_state["baseline"], kind)
        lines.append(f"-- growth since request {_WARM}, by {kind}:")
        for stat in stats[: 12 if kind == "lineno" else 3]:
            if stat.size_diff <= 0:
                continue
            lines.append(
                f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks"
                f" {stat.traceback[0] if kind == 'lineno' else ''}"
            )
            if kind == "traceback":
                lines.extend(f"      {frame}" for frame in stat.traceback.format()[-16:])
    Path(_TRACE_DIR, f"{os.getpid()}.txt").write_text("\n".join(lines) + "\n")
