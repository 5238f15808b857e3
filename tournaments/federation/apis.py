"""The federations API (issue 39). Thin: validate, call one service or selector, render.
A federation's member list (personal data: names, birth years) is read and imported by
staff and the organisers of its clubs; its rating list and monthly reports are public,
as a club's rating list is."""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext_noop
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination, error_responses
from core.errors import NotFoundError, ValidationError
from tournaments.apis.reads import CsvApi
from tournaments.federation import selectors
from tournaments.federation import serializers as s
from tournaments.federation.files import member_rows
from tournaments.federation.models import Federation
from tournaments.federation.services import federation_members_import

MAX_BYTES = 5 * 1024 * 1024
MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


def _page(view: APIView, request: Request, items: Any, render: Any) -> Response:
    paginator = ApiPagination()
    page = paginator.paginate_queryset(items, request, view=view)
    return paginator.get_paginated_response(render(page))


def _federation(federation_id: int) -> Federation:
    federation = Federation.objects.filter(pk=federation_id).first()
    if federation is None:
        raise NotFoundError(
            gettext_noop("no such federation"), extra={"reason": "federation_not_found"}
        )
    return federation


def _month(month: str) -> str:
    if not MONTH.match(month):
        raise ValidationError(gettext_noop("a month is written 2026-11"), code="month")
    return month


class FederationApi(APIView):
    permission_classes = [permissions.AllowAny]
    pagination_class = ApiPagination


class MembersApi(FederationApi):
    """The federation's member list by federation id (staff and its clubs' organisers)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="federations_members_list",
        responses={200: s.MemberOutputSerializer(many=True), **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, federation_id: int) -> Response:
        federation = selectors.federation_get_for_manage(
            federation_id=federation_id, user=request.user
        )
        return _page(
            self,
            request,
            selectors.federation_members(federation=federation),
            lambda p: s.MemberOutputSerializer(p, many=True).data,
        )


class MembersImportApi(FederationApi):
    """Import a member list (CSV or XLSX, its bytes in base64): each row linked to the player
    of its club of that name, and the report of what matched, what is new and what
    conflicts (`dry_run`: the report only)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="federations_members_import",
        request=s.MemberImportInputSerializer,
        responses={200: s.MemberReportSerializer, **error_responses(400, 401, 403, 404)},
    )
    def post(self, request: Request, federation_id: int) -> Response:
        federation = selectors.federation_get_for_manage(
            federation_id=federation_id, user=request.user
        )
        data = s.MemberImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            content = base64.b64decode(data.validated_data["content_base64"], validate=True)
        except (binascii.Error, ValueError) as exc:
            raise ValidationError(gettext_noop("not a CSV or XLSX member list"),
                                  code="member_file") from exc  # fmt: skip
        if len(content) > MAX_BYTES:
            raise ValidationError(gettext_noop("the file is larger than 5 MB"), code="member_file")
        rows = member_rows(content=content, filename=data.validated_data["filename"])
        dry_run = data.validated_data["dry_run"]
        report = federation_members_import(federation=federation, rows=rows, dry_run=dry_run)
        body = {"counts": report.counts(), "matched": report.matched, "new": report.new,
                "conflicts": report.conflicts, "dry_run": dry_run}  # fmt: skip
        return Response(s.MemberReportSerializer(body).data)


class RatingsApi(FederationApi):
    """The federation's stored rating list, best first (every club's rated matches, one
    rating period a calendar month)."""

    @extend_schema(
        operation_id="federations_ratings_list",
        responses={200: s.FederationRatingSerializer(many=True), **error_responses(404)},
    )
    def get(self, request: Request, federation_id: int) -> Response:
        federation = _federation(federation_id)
        return _page(
            self,
            request,
            selectors.federation_ratings(federation_id=federation.pk),
            lambda p: s.FederationRatingSerializer(p, many=True).data,
        )


def _report_schema(operation_id: str, media: str, what: str) -> dict[str, Any]:
    return {
        "operation_id": operation_id,
        "responses": {
            (200, media): OpenApiResponse(response=OpenApiTypes.STR, description=what),
            **error_responses(400, 404),
        },
    }


class ReportCsvApi(CsvApi):
    """The monthly rating report as CSV: the list at the end of the month."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        **_report_schema(
            "federations_report_csv",
            "text/csv",
            "The list as it stood at the end of the month, columns: "
            + ", ".join(selectors.REPORT_COLUMNS),
        )
    )
    def get(self, request: Request, federation_id: int, month: str) -> HttpResponse:
        federation = _federation(federation_id)
        text = selectors.federation_report_csv(federation=federation, month=_month(month))
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
        name = f"federation-{federation.pk}-{month}.csv"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


class ReportHgxApi(CsvApi):
    """The monthly rating report as a fixed-field text file (HGXR 1)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        **_report_schema(
            "federations_report_hgx",
            "text/plain",
            "HGXR 1: one 003 record a player (docs/explanation/exchange-format.md).",
        )
    )
    def get(self, request: Request, federation_id: int, month: str) -> HttpResponse:
        federation = _federation(federation_id)
        text = selectors.federation_report_hgx(federation=federation, month=_month(month))
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        name = f"federation-{federation.pk}-{month}.hgxr"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
