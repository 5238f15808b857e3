"""Who may do what through the API, as DRF permission classes."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.views import APIView

from players.selectors import user_is_organiser


class IsOrganiser(permissions.BasePermission):
    """Staff, the organisers group, or organisers of a club."""

    message = gettext_lazy("Only organisers may do this.")

    def has_permission(self, request: Request, view: APIView) -> bool:
        return user_is_organiser(user=request.user)


class IsOrganiserForWrites(IsOrganiser):
    """Anyone authenticated reads; organisers write."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return bool(request.user and request.user.is_authenticated)
        return super().has_permission(request, view)
