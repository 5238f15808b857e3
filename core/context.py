"""What the code running now runs for: the request's (or job's) id, the signed-in user's id,
the route. Context variables, set by core.requestid, read by core.logs; no Django here, so
the settings can name the log filter that reads them."""

from __future__ import annotations

from contextvars import ContextVar

request_id_var: ContextVar[str] = ContextVar("hg_request_id", default="")
user_id_var: ContextVar[str] = ContextVar("hg_user_id", default="")
route_var: ContextVar[str] = ContextVar("hg_route", default="")
