"""Webhooks API of a tournament (its organisers and staff). Thin: validate input, call one
service or selector, render."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination, error_responses
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER, idempotent
from tournaments.webhooks import selectors, services
from tournaments.webhooks import serializers as s

WRITE = {"parameters": [IDEMPOTENCY_KEY_PARAMETER]}
TAGS = ["webhooks"]


def _endpoint(request: Request, tournament_id: int, webhook_id: int) -> Any:
    tournament = selectors.webhook_tournament_for(tournament_id=tournament_id, user=request.user)
    return selectors.webhook_get(tournament=tournament, webhook_id=webhook_id)


def _written(written: services.EndpointWritten) -> Any:
    if written.secret is None:
        return s.WebhookOutputSerializer(written.endpoint).data
    data = s.WebhookWithSecretOutputSerializer(written.endpoint).data
    return {**data, "secret": written.secret}


class WebhookListApi(APIView):
    """A tournament's webhook endpoints; POST registers one and answers its secret, once."""

    pagination_class = ApiPagination  # also tells the schema the list is paginated

    @extend_schema(
        tags=TAGS,
        responses={200: s.WebhookOutputSerializer(many=True), **error_responses(400, 403, 404)},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.webhook_tournament_for(
            tournament_id=tournament_id, user=request.user
        )
        paginator = ApiPagination()
        page = paginator.paginate_queryset(
            selectors.webhook_list(tournament=tournament), request, view=self
        )
        return paginator.get_paginated_response(s.WebhookOutputSerializer(page, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=s.WebhookCreateInputSerializer,
        responses={
            201: s.WebhookWithSecretOutputSerializer,
            **error_responses(400, 403, 404, 409, 422),
        },
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = selectors.webhook_tournament_for(
            tournament_id=tournament_id, user=request.user
        )
        data = s.WebhookCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        written = services.webhook_create(
            tournament_id=tournament.pk, by=request.user, **data.validated_data
        )
        return Response(_written(written), status=status.HTTP_201_CREATED)


class WebhookDetailApi(APIView):
    @extend_schema(
        tags=TAGS, responses={200: s.WebhookOutputSerializer, **error_responses(403, 404)}
    )
    def get(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        endpoint = _endpoint(request, tournament_id, webhook_id)
        return Response(s.WebhookOutputSerializer(endpoint).data)

    @extend_schema(
        tags=TAGS,
        request=s.WebhookUpdateInputSerializer,
        responses={200: s.WebhookUpdatedOutputSerializer, **error_responses(400, 403, 404)},
        description="Change an endpoint. `secret` is in the answer only with `rotate_secret`.",
    )
    def patch(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        endpoint = _endpoint(request, tournament_id, webhook_id)
        data = s.WebhookUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        written = services.webhook_update(
            tournament_id=tournament_id,
            webhook_id=endpoint.pk,
            by=request.user,
            **data.validated_data,
        )
        return Response(_written(written))

    @extend_schema(tags=TAGS, responses={204: None, **error_responses(403, 404)})
    def delete(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        endpoint = _endpoint(request, tournament_id, webhook_id)
        services.webhook_delete(
            tournament_id=tournament_id, webhook_id=endpoint.pk, by=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class DeliveryListApi(APIView):
    """The endpoint's delivery log, latest event first: status, attempts, latency and the
    receiver's last answer."""

    pagination_class = ApiPagination

    @extend_schema(
        tags=TAGS,
        parameters=[OpenApiParameter("status", str, enum=["pending", "delivered", "parked"])],
        responses={200: s.DeliveryOutputSerializer(many=True), **error_responses(400, 403, 404)},
    )
    def get(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        endpoint = _endpoint(request, tournament_id, webhook_id)
        filters = s.DeliveryFilterInputSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        rows = selectors.delivery_list(
            endpoint=endpoint, status=filters.validated_data.get("status")
        )
        paginator = ApiPagination()
        page = paginator.paginate_queryset(rows, request, view=self)
        return paginator.get_paginated_response(s.DeliveryOutputSerializer(page, many=True).data)


class DeliveryRedeliverApi(APIView):
    """Send one delivery again, with a fresh count of attempts."""

    @extend_schema(
        tags=TAGS,
        request=None,
        responses={200: s.DeliveryOutputSerializer, **error_responses(403, 404, 422)},
        **WRITE,
    )
    @idempotent
    def post(
        self, request: Request, tournament_id: int, webhook_id: int, delivery_id: int
    ) -> Response:
        endpoint = _endpoint(request, tournament_id, webhook_id)
        delivery = services.delivery_redeliver(
            tournament_id=tournament_id,
            webhook_id=endpoint.pk,
            delivery_id=delivery_id,
            by=request.user,
        )
        return Response(s.DeliveryOutputSerializer(delivery).data)


class WebhookRedeliverApi(APIView):
    """Send again every event the endpoint wants from a position of the tournament's stream
    (also events from before it was registered)."""

    @extend_schema(
        tags=TAGS,
        request=s.RedeliverFromInputSerializer,
        responses={200: s.RedeliveredOutputSerializer, **error_responses(400, 403, 404, 422)},
        **WRITE,
    )
    @idempotent
    def post(self, request: Request, tournament_id: int, webhook_id: int) -> Response:
        endpoint = _endpoint(request, tournament_id, webhook_id)
        data = s.RedeliverFromInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        queued = services.webhook_redeliver_from(
            tournament_id=tournament_id,
            webhook_id=endpoint.pk,
            from_position=data.validated_data["from_position"],
            by=request.user,
        )
        return Response({"queued": queued})
