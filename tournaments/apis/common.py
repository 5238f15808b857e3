"""What every tournament endpoint shares: the base view (anyone reads what the selectors
let them see; writing needs a user and the service decides), the tournament of a request,
rendering in the tournament's zone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_noop
from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ApiPagination, error_responses
from core.errors import NotFoundError, ValidationError
from core.idempotency import IDEMPOTENCY_KEY_PARAMETER
from players.models import Player
from players.selectors import player_for_user
from tournaments import selectors
from tournaments import serializers as s
from tournaments.models import Tournament

WRITE = {"parameters": [IDEMPOTENCY_KEY_PARAMETER]}
COMMAND_ERRORS = (400, 403, 404, 409, 422)


def command_schema(body: Any, out: Any, *, status: int = 200) -> Any:
    """The schema of a tournament command: its body, what it answers, the errors every
    command may answer, the Idempotency-Key header."""
    return extend_schema(
        request=body, responses={status: out, **error_responses(*COMMAND_ERRORS)}, **WRITE
    )


class TournamentApi(APIView):
    """Every tournament endpoint: anyone may read what the selectors let them see (a public
    tournament, anonymously too; a private one is 404 to strangers); writing needs a user,
    and the service decides whether that user may."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]


def _tournament(request: Request, tournament_id: int) -> Tournament:
    return selectors.tournament_get(tournament_id=tournament_id, user=request.user)


def _render(
    serializer: type,
    obj: Any,
    tournament: Tournament,
    *,
    request: Request | None = None,
    **kwargs: Any,
) -> Any:
    """`request`: whose view (organiser user ids are shown to organisers and staff only)."""
    context = s.zone_context(tournament)
    if request is not None:
        context["show_organisers"] = selectors.user_can_organise(
            user=request.user, tournament=tournament
        )
    return serializer(obj, context=context, **kwargs).data


def tournament_write(
    request: Request,
    tournament_id: int,
    *,
    body: type,
    out: type,
    act: Callable[[Tournament, dict[str, Any]], Any],
    status: int = 200,
    zoned: bool = False,
) -> Response:
    """The shape of every tournament command's view: the tournament the caller may see,
    the body checked by the `body` serializer (`zoned`: its times read in the tournament's
    zone), `act(tournament, validated data)` calling one service, and what it returns
    rendered by `out` in the tournament's zone."""
    tournament = _tournament(request, tournament_id)
    context = s.zone_context(tournament) if zoned else {}
    data = body(data=request.data, context=context)
    data.is_valid(raise_exception=True)
    result = act(tournament, data.validated_data)
    return Response(_render(out, result, tournament), status=status)


def _number(raw: str, name: str) -> int:
    """A small non-negative integer from the query string (ASCII digits only)."""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 9):
        raise ValidationError(
            gettext_noop("%(name)s must be a whole number"), code=name, params={"name": name}
        )
    return int(raw)


def _player(request: Request, player_id: int | None) -> Player:
    if player_id is None:
        player = player_for_user(user=request.user)
        if player is None:
            raise ValidationError("you have no player; name one", code="player_required")
        return player
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFoundError("no such player")
    return player


def _page(view: APIView, request: Request, rows: Any, serializer: Any, t: Tournament) -> Response:
    """One page (`limit`, `offset`) of a tournament's list, rendered in its time zone."""
    paginator = ApiPagination()
    page = paginator.paginate_queryset(rows, request, view=view)
    return paginator.get_paginated_response(_render(serializer, page, t, many=True))
