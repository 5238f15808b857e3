"""Log lines for people and for machines: every record gets the request id, user id and
route of the request (or job) it was logged in (core.requestid), and production writes one
JSON object a line (LOG_FORMAT=json); `make run` keeps plain text.

    {"time": "2026-12-01T21:30:00.123Z", "level": "INFO", "logger": "hg.request",
     "message": "POST api/matches/<uuid:match_id>/actions/ 200", "request_id": "…",
     "user_id": "12", "route": "api/matches/<uuid:match_id>/actions/", "status": 200,
     "duration_ms": 41.2}
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

from core.context import request_id_var, route_var, user_id_var

# The attributes every LogRecord has: anything else was passed in `extra` and is written too.
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}
_CONTEXT = ("request_id", "user_id", "route")


class RequestContextFilter(logging.Filter):
    """Adds request_id, user_id and route (empty outside a request or job)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "request_id", None):
            record.request_id = request_id_var.get()
        if not getattr(record, "user_id", None):
            record.user_id = user_id_var.get()
        if not getattr(record, "route", None):
            record.route = route_var.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ms), level, logger, message, the request context,
    the record's extras, and the exception's traceback if there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, tz=dt.UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in _CONTEXT:
            line[key] = getattr(record, key, "") or ""
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line and not key.startswith("_"):
                line[key] = value
        if record.exc_info:
            line["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)


PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"


def _formatter(fmt: str) -> dict[str, Any]:
    """The one formatter of the app's and gunicorn's logging: JSON lines, or plain text."""
    return {"()": "core.logs.JsonFormatter"} if fmt == "json" else {"format": PLAIN_FORMAT}


def logging_config(*, fmt: str, level: str, mail_admins: bool) -> dict[str, Any]:
    """The LOGGING setting: `fmt` "json" or "plain", to standard error; a server error
    e-mailed to ADMINS too if `mail_admins` (off when Sentry reports errors)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request": {"()": "core.logs.RequestContextFilter"},
            "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
        },
        "formatters": {"main": _formatter(fmt)},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["request"],
                "formatter": "main",
            },
            "mail_admins": {
                "class": "django.utils.log.AdminEmailHandler",
                "level": "ERROR",
                "filters": ["require_debug_false"],
            },
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # One line per request comes from hg.request (core.requestid); Django's own
            # "Not Found: /x" lines would repeat it, without the id.
            "django.request": {
                "handlers": ["console", "mail_admins"] if mail_admins else ["console"],
                "level": "ERROR",
                "propagate": False,
            },
            "django.server": {"level": "WARNING"},
        },
    }


class AccessLogFilter(logging.Filter):
    """gunicorn's access log lines (deploy/gunicorn.conf.py) as fields: the client, the
    request line, the status, the duration and the request id the app answered with."""

    def filter(self, record: logging.LogRecord) -> bool:
        atoms = record.args if isinstance(record.args, dict) else {}
        if atoms:
            record.request_id = atoms.get("{x-request-id}o", "") or ""
            record.remote = atoms.get("h", "")
            record.request = atoms.get("r", "")
            record.status = atoms.get("s", "")
            record.duration_ms = round(float(atoms.get("D", 0) or 0) / 1000, 1)
        return True


def gunicorn_logconfig(*, fmt: str) -> dict[str, Any]:
    """gunicorn's own logging (its errors, its access log), as the app's (logconfig_dict)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request": {"()": "core.logs.RequestContextFilter"},
            "access": {"()": "core.logs.AccessLogFilter"},
        },
        "formatters": {"main": _formatter(fmt)},
        "handlers": {
            "console": {  # the root's, as in gunicorn's defaults
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "filters": ["request"],
                "formatter": "main",
            },
            "error": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "filters": ["request"],
                "formatter": "main",
            },
            "access": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stdout",
                "filters": ["access", "request"],
                "formatter": "main",
            },
        },
        "root": {"level": "INFO", "handlers": ["console"]},
        "loggers": {
            # No levels here: gunicorn's own (--log-level) stay in force.
            "gunicorn.error": {"handlers": ["error"], "propagate": False},
            "gunicorn.access": {"handlers": ["access"], "propagate": False},
        },
    }
