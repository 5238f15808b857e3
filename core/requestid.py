"""The request id: taken from `X-Request-ID` (or made), echoed in the response, kept while
the request runs (a context variable, so log lines, events' metadata and the jobs the
request queues carry it), and carried into those jobs by a Celery message header.

A client's id is kept only if it is short and plain (letters, digits, `-_.:`), so a log line
never carries a client's control characters or a megabyte of header."""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

from core import metrics
from core.context import request_id_var, route_var, user_id_var

HEADER = "X-Request-ID"
CELERY_HEADER = "hg_request_id"
_PLAIN = re.compile(r"[A-Za-z0-9._:\-]{1,200}")

access_log = logging.getLogger("hg.request")


def request_id_from(value: str | None) -> str:
    """The client's id if it is plain, else a new one."""
    if value and _PLAIN.fullmatch(value):
        return value
    return uuid.uuid4().hex


def current_request_id() -> str:
    """The id of the request (or job) this code runs for; "" outside one."""
    return request_id_var.get()


def route_of(request: HttpRequest) -> str:
    """The URL pattern the request resolved to (`api/matches/<uuid:match_id>/`), or its
    view's name; "" before resolving or for a 404: never the raw path, whose ids and
    tokens would make every line (and metric label) unique."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return ""
    return match.route or match.view_name or ""


def _user_id(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    # Read at the request's end: DRF's authentication (inside the view) sets Django's too.
    if user is not None and getattr(user, "is_authenticated", False):
        return str(user.pk)
    return ""


class _Request:
    """What the middleware keeps of one request between its start and its end."""

    def __init__(self, request: HttpRequest) -> None:
        self.id = request_id_from(request.headers.get(HEADER))
        request.request_id = self.id  # type: ignore[attr-defined]
        self.tokens = (request_id_var.set(self.id), user_id_var.set(""), route_var.set(""))
        self.started = time.perf_counter()
        self.db = metrics.db_timer_start()

    def end(self, request: HttpRequest, response: HttpResponse | None) -> None:
        route = route_of(request)
        user = _user_id(request) or user_id_var.get()
        route_var.set(route)
        user_id_var.set(user)
        status = response.status_code if response is not None else 500
        if response is not None:
            response[HEADER] = self.id
        seconds = time.perf_counter() - self.started
        metrics.request_observed(
            view=route, method=request.method or "", status=status, seconds=seconds, db=self.db
        )
        metrics.db_timer_stop()
        access_log.info(
            "%s %s %s",
            request.method,
            route or "-",
            status,
            extra={
                "method": request.method,
                "status": status,
                "duration_ms": round(seconds * 1000, 1),
                "db_ms": round(self.db[0] * 1000, 1),
                "db_queries": int(self.db[1]),
            },
        )
        request_id_var.reset(self.tokens[0])
        user_id_var.reset(self.tokens[1])
        route_var.reset(self.tokens[2])


@sync_and_async_middleware
def RequestIdMiddleware(get_response: Callable) -> Callable:  # noqa: N802 - a middleware
    """First of the middleware: every later line logged during the request carries its id;
    one line per request at its end (hg.request: method, route, status, duration, database
    time), and the request counted in the metrics (core.metrics)."""
    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> HttpResponse:
            current = _Request(request)
            response = None
            try:
                response = await get_response(request)
                return response
            finally:
                current.end(request, response)

        return middleware_async

    def middleware(request: HttpRequest) -> HttpResponse:
        current = _Request(request)
        response = None
        try:
            response = get_response(request)
            return response
        finally:
            current.end(request, response)

    return middleware


# --- into the jobs a request queues ---------------------------------------------------------


def headers_for_job() -> dict[str, str]:
    """The message headers that carry the current request id into a job."""
    current = request_id_var.get()
    return {CELERY_HEADER: current} if current else {}


def job_started(task: Any) -> None:
    """Celery's task_prerun: the job's log lines carry the id of the request that queued it.
    An eager job (run in the request's own thread) keeps the request's."""
    if getattr(task.request, "is_eager", False):
        return
    request_id_var.set(getattr(task.request, CELERY_HEADER, None) or "")
    user_id_var.set("")
    route_var.set(f"task:{task.name}")
