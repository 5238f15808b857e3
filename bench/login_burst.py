"""Bursts of wrong logins, all at once, against gunicorn as deployed (deploy/gunicorn.conf.py,
the production password hasher): how many of them hashed a password, and how long a
request that hashes nothing waited meanwhile, without and with the login hashing budget
and the limit of hashes at once (core.login_throttle; LOGIN_HASHES_PER_ADDRESS,
LOGIN_HASHES_PER_ACCOUNT, LOGIN_HASHES_AT_ONCE_PER_ADDRESS, _PER_ACCOUNT).

1. Recreates the PostgreSQL database --db (default hg_bench_login), migrates it, creates one
   account.
2. For each setting and each burst: flushes the cache (Redis --cache, shared by the
   workers) and axes' records, starts gunicorn (--workers; NUM_PROXIES=1, so that the
   bench can speak for many addresses), and sends --burst wrong-password logins to the
   desk's login form (no DRF throttle in front of it) at once: "one address, many
   accounts", or "one account, many addresses"; meanwhile GET /healthz every 20 ms.
3. Prints, per setting and burst: the answers (200: the form again, hashed and wrong; 429:
   refused before hashing), the burst's wall time, and the median and slowest /healthz.

    .venv/bin/python bench/login_burst.py [--burst 40] [--workers 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench._db import ensure_database  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")
SETUP = (
    "from players.services import player_create;"
    " player_create(name='Olive', username='olive', password='the-right-pass-1')"
)


def env(db: str, cache: str, budgets: tuple[int, int, int]) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",  # PBKDF2, as in production
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{db}",
        "CACHE_URL": cache,
        "CELERY_BROKER_URL": "",
        "LOG_LEVEL": "WARNING",
        "LOGIN_HASHES_PER_ADDRESS": str(budgets[0]),
        "LOGIN_HASHES_PER_ACCOUNT": str(budgets[1]),
        "LOGIN_HASHES_AT_ONCE_PER_ADDRESS": str(budgets[2]),
        "LOGIN_HASHES_AT_ONCE_PER_ACCOUNT": str(budgets[2]),
        "NUM_PROXIES": "1",
    }


def serve(environ: dict[str, str], port: int, workers: int) -> subprocess.Popen:
    cmd = [GUNICORN, "-c", "deploy/gunicorn.conf.py", "config.wsgi:application"]
    cmd += ["--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--log-level", "error"]
    server = subprocess.Popen(cmd, cwd=ROOT, env=environ)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not start")


def burst(base: str, n: int, many: str) -> tuple[Counter, float, list[float]]:
    pings: list[float] = []
    done = threading.Event()

    def ping() -> None:
        with httpx.Client(base_url=base, timeout=60) as client:
            while not done.is_set():
                start = time.perf_counter()
                client.get("/healthz")
                pings.append(time.perf_counter() - start)
                done.wait(0.02)

    def login(i: int) -> int:
        address = "203.0.113.9" if many == "accounts" else f"10.{i // 250}.{i % 250}.1"
        username = f"guess{i}" if many == "accounts" else "olive"
        headers = {"X-Forwarded-For": address}
        with httpx.Client(base_url=base, timeout=120, headers=headers) as client:
            client.get("/desk/login/")  # the CSRF cookie
            body = {"username": username, "password": f"wrong-{i}"}
            body["csrfmiddlewaretoken"] = client.cookies["csrftoken"]
            return client.post("/desk/login/", data=body).status_code

    pinger = threading.Thread(target=ping)
    pinger.start()
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=n) as pool:
        codes = Counter(pool.map(login, range(n)))
    wall = time.perf_counter() - start
    done.set()
    pinger.join()
    return codes, wall, pings


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default="hg_bench_login")
    parser.add_argument("--cache", default="rediscache://127.0.0.1:6379/3")
    parser.add_argument("--burst", type=int, default=40)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    ensure_database(f"postgres://postgres@127.0.0.1:5432/{args.db}", fresh=True)
    setup_env = env(args.db, args.cache, (0, 0, 0))
    subprocess.run([PYTHON, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=setup_env, check=True)
    subprocess.run([PYTHON, "manage.py", "shell", "-c", SETUP], cwd=ROOT, env=setup_env, check=True)
    base = f"http://127.0.0.1:{args.port}"
    settings = (
        ("no hashing budget", (0, 0, 0)),
        ("budget 20/address, 10/account a minute", (20, 10, 0)),
        ("budget, and at most 2 at once per address and per account", (20, 10, 2)),
    )
    for label, budgets in settings:
        environ = env(args.db, args.cache, budgets)
        for many in ("accounts", "addresses"):
            subprocess.run(
                [PYTHON, "manage.py", "shell", "-c",
                 "from django.core.cache import cache; from axes.models import AccessAttempt;"
                 " cache.clear(); AccessAttempt.objects.all().delete()"],
                cwd=ROOT, env=environ, check=True, capture_output=True,
            )  # fmt: skip
            server = serve(environ, args.port, args.workers)
            try:
                codes, wall, pings = burst(base, args.burst, many)
            finally:
                server.terminate()
                server.wait(30)
            other = {k: v for k, v in codes.items() if k not in (200, 429)}
            where = "one address, many accounts" if many == "accounts" else (
                "one account, many addresses")  # fmt: skip
            print(
                f"{label}; {where}: {args.burst} wrong logins at once -> hashed"
                f" {codes.get(200, 0)}, refused before hashing (429) {codes.get(429, 0)},"
                f" other {other}; burst {wall:.1f} s; /healthz median"
                f" {statistics.median(pings) * 1000:.0f} ms, slowest {max(pings) * 1000:.0f} ms",
                flush=True,
            )
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')


if __name__ == "__main__":
    main()
