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
