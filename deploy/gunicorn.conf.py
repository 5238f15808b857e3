"""gunicorn for production, behind a proxy or not: `gunicorn -c deploy/gunicorn.conf.py
config.wsgi`. The settings of config/gunicorn.py, with the request limits spelled out, and
gunicorn's own error answers (before Django sees the request: a request line or a header
too long, too many headers, a malformed header) in the API's JSON error shape instead of
gunicorn's HTML page:

    HTTP/1.1 431 Request Header Fields Too Large
    Content-Type: application/json
    {"error": {"code": "header_too_large", "message": "Request Header Fields Too Large"}}

The message is gunicorn's reason phrase only: what it found wrong may quote the client's
bytes. tests/reliability/test_gunicorn_errors.py serves with this file and checks each.
"""

import json
import os
import sys
from pathlib import Path

from gunicorn import util

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from config.gunicorn import *  # noqa: E402, F403 - bind, workers, worker_class, ...

# gunicorn's defaults, here to be seen and changed in one place: a request line (method,
# path and query) of at most 4094 bytes (else 414), at most 100 header fields of at most
# 8190 bytes each (else 431). A proxy in front must allow at least as much, or its own
# (HTML) error page answers first.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

ERROR_CODES = {
    400: "bad_request",
    403: "forbidden",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "header_too_large",
    500: "server_error",
    501: "not_implemented",
}


def write_json_error(sock, status_int, reason, mesg):  # noqa: ARG001 - mesg: see above
    """gunicorn.util.write_error's place: the same status line and headers, a JSON body."""
    code = ERROR_CODES.get(status_int, "bad_request")
    body = json.dumps({"error": {"code": code, "message": reason}}).encode("utf-8")
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


# The workers are forked from the master that reads this file, and call util.write_error
# through the module: replacing it here replaces it in every worker.
util.write_error = write_json_error

# --- logs: gunicorn's access log on, in the app's format (core.logs) ------------------------
# JSON lines in production (LOG_FORMAT, default json unless the settings are not
# production's), with the request id the app answered with (X-Request-ID).
from core.logs import gunicorn_logconfig  # noqa: E402

_settings = os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings.production")
_log_format = os.environ.get("LOG_FORMAT") or (
    "json" if _settings.endswith("production") else "plain"
)
# GUNICORN_ACCESS_LOG="" turns it off (a benchmark measuring the app alone).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
access_log_format = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms %({x-request-id}o)s'
logconfig_dict = gunicorn_logconfig(fmt=_log_format)

# --- metrics: every worker's counted (core.metrics, prometheus-client's multiprocess mode) --


def on_starting(server):
    """The master starts: the metrics directory (PROMETHEUS_MULTIPROC_DIR) is emptied of the
    last run's files, or its dead workers' counts would be added in."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        Path(directory).mkdir(parents=True, exist_ok=True)
        for stale in Path(directory).glob("*.db"):
            stale.unlink()


def child_exit(server, worker):
    """A worker exited (recycled, killed): its live gauges no longer count."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
