"""What the matches API's views share: the match id parameter, the read anyone may make of
a public match, the request id carried into the events, and the caller's view after a
write."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination
from core.idempotency import Replay
from core.requestid import current_request_id
from games import selectors, services

MATCH_ID = OpenApiParameter(
    "match_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The match's id."
)


PAGE_PARAMETERS = [
    OpenApiParameter("limit", OpenApiTypes.INT, description="Results per page."),
    OpenApiParameter("offset", OpenApiTypes.INT, description="Index of the first result."),
]


class SignedInOrPublicMatch(permissions.BasePermission):
    """Reads of one match: signed in, on to the selectors (a match the caller may not see
    is a 404, as an unknown one); signed out, only a public match (a public tournament's,
    `selectors.match_is_public`): anything else is a 401, as for any signed-out call, so a
    signed-out caller learns nothing of a friendly or a private tournament's match."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.user and request.user.is_authenticated:
            return True
        if request.method not in permissions.SAFE_METHODS:
            return False
        return selectors.match_id_is_public(match_id=view.kwargs.get("match_id"))


class PublicReadSchema(AutoSchema):
    """The schema of a read that needs no sign-in for a public match: its operations list
    "no authentication" (`{}`) among their security requirements, as drf-spectacular does
    by itself for AllowAny and IsAuthenticatedOrReadOnly only."""

    def get_auth(self) -> list:
        auths = super().get_auth()
        return auths if {} in auths else [*auths, {}]


class PublicMatchReadApi(APIView):
    """A read of one match that anyone may make for a public match (SignedInOrPublicMatch)."""

    permission_classes = [SignedInOrPublicMatch]
    schema = PublicReadSchema()


def _request_id(request: Request) -> str:
    """Carried into the events' metadata, so an audit can tie an event to its request: its
    Idempotency-Key, else its X-Request-ID (taken or made: core.requestid)."""
    return (request.headers.get("Idempotency-Key") or current_request_id())[:200]


def _view_after(request: Request, saved: services.MatchResult) -> dict:
    """The caller's view of a match a service has just changed, from the state it left."""
    latest = (saved.state, saved.version)
    head = saved.events[-1].hash if saved.events else None  # the receipt needs no query
    return selectors.match_view_for(
        match=saved.match, user=request.user, latest=latest, head_hash=head
    )


def _view_reference(data: dict) -> dict:
    """What an idempotency record keeps of a command's answer (the caller's view): the
    version the command produced, and what the state at that version does not hold — the
    match's status then and the receipt's signing time."""
    reference = {"v": data["version"], "s": data["status"]}
    if data.get("receipt"):
        reference["t"] = data["receipt"]["created_at"]
    return reference


def _view_at(request: Request, kwargs: dict[str, Any], reference: dict) -> dict:
    """The caller's view of the match at the referenced version: the first answer again."""
    match = selectors.match_get(match_id=kwargs["match_id"], user=request.user)
    body = selectors.match_view_for(match=match, user=request.user, version=reference["v"])
    body["status"] = reference["s"]
    if body["receipt"] is not None and "t" in reference:
        body["receipt"]["created_at"] = reference["t"]  # signed again now, dated as then
    return body


# A match command's answer is replayed from its version, not kept (core.idempotency).
MATCH_VIEW_REPLAY = Replay(reference=_view_reference, render=_view_at)


def _page(request: Request, view: APIView, rows: list) -> Response:
    """One page of a list in the envelope every list answers (`count`, `next`,
    `previous`, `results`)."""
    paginator = ApiPagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(page)
