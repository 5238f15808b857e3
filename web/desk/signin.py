"""Signing in at `/desk/login/`: with a username and password (Django's login view), or, on
a phone, with the one-time code the desk gave a player without a password (then, if they
like, a password of their own). A wrong code counts as a failed login against the client's
address, with the same lockout as every other login path (core.login_throttle).

Staff and organisers locked out have their own way back in, apart from the players' codes:
a one-time link printed by `manage.py staff_signin_link` (`staff_signin`), which hashes no
password and clears the account's failed logins."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.signals import user_login_failed
from django.contrib.auth.views import LoginView, redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from core.errors import ValidationError, translated_message
from core.login_throttle import client_ip, lockout_response, lockouts_clear
from players.selectors import user_is_organiser
from players.services import (
    SigninLinkError,
    player_login_code_use,
    staff_signin_token_use,
    user_password_set,
)
from web.desk.access import LOGIN_URL
from web.desk.forms import DeskAuthenticationForm, LoginCodeForm

# The session remembers a sign-in by code until the player sets a password or leaves: only
# then may a password be set without the old one (there is none).
SIGNED_IN_BY_CODE = "desk_signed_in_by_code"
# A code opens one account; which one is unknown until it matches, so a wrong code is
# counted against the address (as axes' "username" too, so that the count holds whatever
# LOGIN_LOCKOUT_BY says).
CODE_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _code_credentials(request: HttpRequest) -> dict[str, str]:
    return {"username": f"login code from {client_ip(request)}"}


class DeskLoginView(LoginView):
    template_name = "desk/login.html"
    authentication_form = DeskAuthenticationForm

    def get_default_redirect_url(self) -> str:
        """Without ?next= (the desk and the table pages send one): an organiser lands on
        the desk (which links to their own evening if they also play), a player on "my
        evening" (web/play/evening.py)."""
        if user_is_organiser(user=self.request.user):
            return reverse("desk-home")
        return reverse("my-evening")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        kwargs.setdefault("code_form", LoginCodeForm())
        return super().get_context_data(**kwargs)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if "code" not in request.POST:
            return super().post(request, *args, **kwargs)
        code_form = LoginCodeForm(request.POST)
        if code_form.is_valid():
            credentials = _code_credentials(request)
            if not AxesProxyHandler.is_allowed(request, credentials):
                return lockout_response(request)
            try:
                user = player_login_code_use(code=code_form.cleaned_data["code"])
            except ValidationError as exc:
                # axes keeps the request's form data with the failure: not the code.
                request.POST = request.POST.copy()
                request.POST["code"] = "********"
                # Counted by axes; at the limit its middleware answers 429 instead.
                user_login_failed.send(__name__, credentials=credentials, request=request)
                code_form.add_error("code", translated_message(exc))
            else:
                login(request, user, backend=CODE_BACKEND)
                request.session[SIGNED_IN_BY_CODE] = True
                query = urlencode({"next": self.get_success_url()})
                return redirect(f"{reverse('desk-password')}?{query}")
        context = self.get_context_data(form=DeskAuthenticationForm(request), code_form=code_form)
        return self.render_to_response(context)


def _next_url(request: HttpRequest) -> str:
    url = request.POST.get("next") or request.GET.get("next") or "/"
    allowed = url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return url if allowed else "/"


@never_cache
def password_set(request: HttpRequest) -> HttpResponse:
    """Right after signing in with a code: the player may set a password (to sign in later
    without the desk), or go straight on."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path(), LOGIN_URL)
    if not request.session.get(SIGNED_IN_BY_CODE) or request.user.has_usable_password():
        raise PermissionDenied("a password is set here only right after signing in with a code")
    next_url = _next_url(request)
    form = SetPasswordForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user_password_set(user=request.user, password=form.cleaned_data["new_password1"])
        update_session_auth_hash(request, request.user)
        request.session.pop(SIGNED_IN_BY_CODE, None)
        return redirect(next_url)
    context = {"form": form, "next": next_url, "username": request.user.get_username()}
    status = 400 if request.method == "POST" else 200
    return render(request, "desk/password_set.html", context, status=status)


@never_cache
def staff_signin(request: HttpRequest, token: str) -> HttpResponse:
    """A one-time sign-in link (`manage.py staff_signin_link`). Opening it (GET) only asks:
    a link preview or a mail scanner must not spend it; the button (POST) signs in."""
    error = ""
    if request.method == "POST":
        try:
            user = staff_signin_token_use(token=token)
        except SigninLinkError:
            error = _("This sign-in link is not valid: it may be used or expired.")
        else:
            login(request, user, backend=CODE_BACKEND)
            lockouts_clear(username=user.get_username())
            return redirect("desk-home")
    status = 400 if error else 200
    return render(request, "desk/staff_signin.html", {"error": error}, status=status)
