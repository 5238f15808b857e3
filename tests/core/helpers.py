"""A hot standby of the test database's cluster and a PgBouncer in front of it, for the
scaling tests (issue 36).

Made with `pg_basebackup -R -X stream` from the primary the tests use, into a temporary
directory, started with PostgreSQL's own `pg_ctl` on a free port; stopped and removed by
`Standby.remove`. The primary's configuration is never touched: when it does not allow a
replication connection from 127.0.0.1 (no `replication` line in its pg_hba.conf), or
`wal_level` is `minimal`, the test is skipped and says why.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import psycopg

from tests.helpers import wait_until

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Standby:
    """A running hot standby of `primary` (a Django database settings dict)."""

    def __init__(self, primary: dict[str, Any]) -> None:
        self.primary = primary
        self.port = _free_port()
        self.dir = Path(tempfile.gettempdir()) / f"hg_standby_{self.port}"  # made by create()
        self.data = self.dir / "data"
        # PostgreSQL refuses to run as root: the cluster belongs to `postgres` then.
        self.run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    # --- making it ---------------------------------------------------------------------------

    def why_not(self) -> str:
        """Why no standby can be made here ("" if one can)."""
        if not (PG_BIN / "pg_ctl").exists() or shutil.which("pg_basebackup") is None:
            return "PostgreSQL 15's pg_ctl and pg_basebackup are not installed"
        if os.geteuid() == 0:
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                return "running as root and there is no postgres user to run a standby as"
        level = self.primary_setting("wal_level")
        if level == "minimal":
            return "the primary's wal_level is minimal: it cannot feed a standby"
        return ""

    def primary_conninfo(self, dbname: str = "postgres") -> str:
        return psycopg.conninfo.make_conninfo(
            host=self.primary["HOST"] or "127.0.0.1",
            port=str(self.primary["PORT"] or 5432),
            user=self.primary["USER"] or "postgres",
            dbname=dbname,
        )

    def primary_setting(self, name: str) -> str:
        with psycopg.connect(self.primary_conninfo(), autocommit=True) as conn:
            return str(conn.execute(f"SHOW {name}").fetchone()[0])  # type: ignore[index]

    def create(self) -> str:
        """Copy and start the standby; "" or why it could not be copied (a refusal of the
        primary's, for a skip; anything else raises)."""
        self.dir.mkdir(mode=0o700)
        backup = subprocess.run(  # noqa: S603
            [
                "pg_basebackup",
                "-h", self.primary["HOST"] or "127.0.0.1",
                "-p", str(self.primary["PORT"] or 5432),
                "-U", self.primary["USER"] or "postgres",
                "-D", str(self.data), "-R", "-X", "stream", "-c", "fast",
            ],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        if backup.returncode != 0:
            if "pg_hba.conf" in backup.stderr or "replication" in backup.stderr:
                return (
                    "the primary does not allow a replication connection from 127.0.0.1 "
                    f"(its pg_hba.conf has no `replication` line): {backup.stderr.strip()}"
                )
            raise RuntimeError(f"pg_basebackup failed: {backup.stderr}")
        self._configure()
        if self.run_as:
            subprocess.run(["chown", "-R", "postgres:", str(self.dir)], check=True)  # noqa: S607
        self.data.chmod(0o700)
        self.start()
        return ""

    def _configure(self) -> None:
        # A Debian cluster keeps postgresql.conf and pg_hba.conf in /etc: the copy has
        # neither. A hot standby needs these at least as large as its primary's.
        at_least = [
            "max_connections", "max_worker_processes", "max_wal_senders",
            "max_prepared_transactions", "max_locks_per_transaction",
        ]  # fmt: skip
        lines = [
            f"port = {self.port}",
            "listen_addresses = '127.0.0.1'",
            f"unix_socket_directories = '{self.dir}'",
            "hot_standby = on",
            "shared_buffers = 32MB",
            "fsync = off",
            "logging_collector = off",
        ]
        lines += [f"{name} = {self.primary_setting(name)}" for name in at_least]
        (self.data / "postgresql.conf").write_text("\n".join(lines) + "\n")
        (self.data / "pg_hba.conf").write_text(
            "local all all trust\nhost all all 127.0.0.1/32 trust\n"
        )
        (self.data / "pg_ident.conf").touch()

    # --- running it --------------------------------------------------------------------------

    def pg_ctl(self, *args: str) -> None:
        subprocess.run(  # noqa: S603
            [*self.run_as, str(PG_BIN / "pg_ctl"), "-D", str(self.data), *args],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip

    def start(self) -> None:
        self.pg_ctl("-l", str(self.dir / "log"), "-w", "start")

    def stop(self) -> None:
        self.pg_ctl("-m", "fast", "-w", "stop")

    def sql(self, query: str, dbname: str = "postgres") -> Any:
        conninfo = psycopg.conninfo.make_conninfo(
            host="127.0.0.1", port=str(self.port), user="postgres", dbname=dbname
        )
        with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as conn:
            row = conn.execute(query).fetchone()
            return row[0] if row else None

    def replayed_past(self, lsn: str) -> bool:
        return bool(self.sql(f"SELECT pg_last_wal_replay_lsn() >= '{lsn}'::pg_lsn"))

    def pause(self) -> None:
        self.sql("SELECT pg_wal_replay_pause()")
        wait_until(
            "the standby's replay to pause",
            lambda: self.sql("SELECT pg_get_wal_replay_pause_state()") == "paused",
        )

    def resume(self) -> None:
        self.sql("SELECT pg_wal_replay_resume()")

    def remove(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class Bouncer:
    """PgBouncer in transaction mode in front of `primary` (a Django database settings
    dict), on a free port, with a generated ini (trust, as the test cluster's pg_hba.conf);
    its admin console is the database `pgbouncer` for user postgres."""

    def __init__(self, primary: dict[str, Any]) -> None:
        self.primary = primary
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="hg_pgbouncer_"))
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        user = self.primary["USER"] or "postgres"
        (self.dir / "userlist.txt").write_text(f'"{user}" ""\n')
        (self.dir / "pgbouncer.ini").write_text(
            "[databases]\n"
            f"* = host={self.primary['HOST'] or '127.0.0.1'} port={self.primary['PORT'] or 5432}\n"
            "[pgbouncer]\n"
            f"listen_addr = 127.0.0.1\nlisten_port = {self.port}\nunix_socket_dir =\n"
            f"auth_type = trust\nauth_file = {self.dir}/userlist.txt\nadmin_users = {user}\n"
            "pool_mode = transaction\ndefault_pool_size = 4\nmax_client_conn = 200\n"
            # psycopg sends none of these, but a client that does is not refused.
            "ignore_startup_parameters = extra_float_digits,options\n"
            f"logfile = {self.dir}/pgbouncer.log\n"
        )
        as_user = ["-u", "postgres"] if os.geteuid() == 0 else []  # it refuses to run as root
        if as_user:
            subprocess.run(["chown", "-R", "postgres:", str(self.dir)], check=True)  # noqa: S607
        self.process = subprocess.Popen(  # noqa: S603
            ["pgbouncer", *as_user, str(self.dir / "pgbouncer.ini")],  # noqa: S607
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_until("PgBouncer to accept connections", self._answers, within=30)

    def _answers(self) -> bool:
        assert self.process is not None and self.process.poll() is None, self.log()
        try:
            self.admin("SHOW VERSION")
        except psycopg.OperationalError:
            return False
        return True

    def log(self) -> str:
        path = self.dir / "pgbouncer.log"
        return path.read_text() if path.exists() else ""

    def admin(self, command: str) -> list[dict[str, Any]]:
        """The admin console's answer to `command` (SHOW POOLS, SHOW STATS, ...)."""
        conninfo = psycopg.conninfo.make_conninfo(
            host="127.0.0.1", port=str(self.port), user="postgres", dbname="pgbouncer"
        )
        # The console speaks the simple query protocol only, outside transactions.
        with psycopg.connect(
            conninfo, autocommit=True, connect_timeout=5, cursor_factory=psycopg.ClientCursor
        ) as conn:
            cursor = conn.cursor()
            cursor.execute(command)  # type: ignore[arg-type]
            names = [column.name for column in cursor.description or []]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def transactions_of(self, dbname: str) -> int:
        """Transactions PgBouncer has passed on for `dbname`."""
        rows = [row for row in self.admin("SHOW STATS") if row["database"] == dbname]
        return int(rows[0]["total_xact_count"]) if rows else 0

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)


def replication_refused(primary: dict[str, Any]) -> str:
    """Why `primary` refuses a replication connection from here ("" if it accepts one)."""
    conninfo = psycopg.conninfo.make_conninfo(
        host=primary["HOST"] or "127.0.0.1",
        port=str(primary["PORT"] or 5432),
        user=primary["USER"] or "postgres",
        replication="true",
    )
    done = subprocess.run(  # noqa: S603
        ["psql", conninfo, "-c", "IDENTIFY_SYSTEM"],  # noqa: S607
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    return "" if done.returncode == 0 else done.stderr.strip()


class Cluster:
    """A PostgreSQL 15 cluster of its own (initdb) on a free port, which allows replication
    from 127.0.0.1: the standby test's primary when the test cluster refuses replication
    (whose configuration is never changed)."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="hg_cluster_"))
        self.data = self.dir / "data"
        self.run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def start(self) -> None:
        if self.run_as:
            subprocess.run(["chown", "-R", "postgres:", str(self.dir)], check=True)  # noqa: S607
        subprocess.run(  # noqa: S603
            [*self.run_as, str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write(
                f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.dir}'\nfsync = off\n"
                "shared_buffers = 32MB\nmax_connections = 40\n"
            )
        with (self.data / "pg_hba.conf").open("a") as hba:
            hba.write("host replication all 127.0.0.1/32 trust\n")
        subprocess.run(  # noqa: S603
            [*self.run_as, str(PG_BIN / "pg_ctl"), "-D", str(self.data),
             "-l", str(self.dir / "log"), "-w", "start"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip

    def url(self, dbname: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{dbname}"

    def remove(self) -> None:
        with contextlib.suppress(Exception):
            subprocess.run(  # noqa: S603
                [*self.run_as, str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                 "-w", "stop"],
                check=True, capture_output=True, timeout=120,
            )  # fmt: skip
        shutil.rmtree(self.dir, ignore_errors=True)
