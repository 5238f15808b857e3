"""gunicorn's settings for bench/soak.py: config/gunicorn.py, with SOAK_MAX_REQUESTS
overriding the deployed recycling (0: never recycle, so that growth shows instead of being
cut short by a restart).

SOAK_TRACE_DIR (bench/soak.py --trace-workers): each worker runs tracemalloc
(SOAK_TRACE_FRAMES frames) from its fork and, every SOAK_TRACE_EVERY seconds, writes a
snapshot to DIR/<pid>-<n>.snap and a line (seconds, traced bytes, RSS KiB) to DIR/<pid>.log,
for soak.py to compare what each worker holds over time."""

from __future__ import annotations

import os

from config.gunicorn import *  # noqa: F403 - bind, workers, worker_class, max_requests, ...

if "SOAK_MAX_REQUESTS" in os.environ:
    max_requests = int(os.environ["SOAK_MAX_REQUESTS"])
    max_requests_jitter = 0

if os.environ.get("SOAK_TRACE_DIR"):
    timeout = 600  # a snapshot holds the worker's GIL for a few seconds

    def post_fork(server, worker):  # noqa: ANN001, ANN201 - gunicorn's hook
        import gc
        import threading
        import time
        import tracemalloc
        from pathlib import Path

        folder = Path(os.environ["SOAK_TRACE_DIR"])
        every = float(os.environ.get("SOAK_TRACE_EVERY", "60"))
        tracemalloc.start(int(os.environ.get("SOAK_TRACE_FRAMES", "12")))
        started = time.monotonic()

        def rss_kib() -> int:
            for line in Path("/proc/self/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
            return 0

        def snapshots() -> None:
            n = 0
            while True:
                time.sleep(every)
                n += 1
                gc.collect()
                snapshot = tracemalloc.take_snapshot()
                path = folder / f"{os.getpid()}-{n:03d}.snap"
                snapshot.dump(f"{path}.part")
                os.replace(f"{path}.part", path)  # a worker stopped mid-dump leaves no .snap
                traced = tracemalloc.get_traced_memory()[0]
                with open(folder / f"{os.getpid()}.log", "a") as log:
                    log.write(f"{n} {time.monotonic() - started:.0f} {traced} {rss_kib()}\n")

        threading.Thread(target=snapshots, daemon=True, name="soak-trace").start()
