"""Writes about players: creating players with or without a login; issuing API tokens;
one-time login codes for players without a password (issued at the desk, used on a phone)."""

from __future__ import annotations

import datetime as dt
import logging
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.text import slugify
from django.utils.translation import gettext_noop
from rest_framework.authtoken.models import Token

from core.authentication import access_token_key, token_digest
from core.errors import ConflictError, NotFoundError, ValidationError
from core.models import AccessToken
from core.retention import delete_in_batches
from core.text import ascii_digits
from core.transactions import write_service
from players.models import Club, LoginCode, Player
from players.selectors import player_may_get_login_code, user_is_organiser

# No 0/O, 1/I/L: read aloud or off a slip, and typed on a phone, without a doubt. 31 signs,
# 8 of them: about 8.5e11 codes, so guessing one of an evening's few live codes at the
# login lockout's pace (per address, core.login_throttle) is hopeless within its 24 hours.
LOGIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LOGIN_CODE_LENGTH = 8
LOGIN_CODE_HOURS_DEFAULT = 24
_KEY_SALT = "players.login_code"
# Who acted as whom: every sign-in code issued, by ids (no notices yet: this log is it).
accounts_log = logging.getLogger("players.accounts")


@write_service
def player_create(
    *,
    name: str,
    username: str | None = None,
    password: str | None = None,
    email: str = "",
    club: Club | None = None,
    is_bot: bool = False,
) -> Player:
    """Create a player; with a username, also the login it plays with."""
    user = None
    if username:
        user_model = get_user_model()
        if user_model.objects.filter(username=username).exists():
            raise ValidationError(
                gettext_noop("username %(username)s is taken"),
                params={"username": repr(username)},
                code="username_taken",
            )
        user = user_model.objects.create_user(username=username, password=password, email=email)
    return Player.objects.create(user=user, name=name, club=club, is_bot=is_bot)


# Inside a caller's transaction (a team's roster made with its event).
player_create_in_tx = player_create.in_tx


# Access tokens (core.models.AccessToken): a login's lasts TOKEN_LOGIN_HOURS; a named one
# (a bot, an integration) until its optional expiry. The key is shown once.
TOKEN_LOGIN_HOURS_DEFAULT = 24 * 30
TOKENS_PER_USER = 100


@dataclass(frozen=True)
class IssuedToken:
    """A token just issued: `key` exists only here (the database keeps its digest)."""

    key: str
    token: AccessToken


def token_login_lifetime() -> dt.timedelta:
    return dt.timedelta(hours=getattr(settings, "TOKEN_LOGIN_HOURS", TOKEN_LOGIN_HOURS_DEFAULT))


# A revoked or expired token is kept this long, so that its key is refused with its reason
# (`token_revoked`, `token_expired`) and not as unknown; a login of its owner deletes it then.
TOKENS_REFUSED_KEPT_DAYS = 30


def _live_tokens(user: AbstractBaseUser, now: dt.datetime) -> Any:
    unexpired = Q(expires_at__isnull=True) | Q(expires_at__gt=now)
    return AccessToken.objects.filter(unexpired, user=user, revoked_at__isnull=True)


@write_service
def auth_token_issue(
    *, user: AbstractBaseUser, name: str = "", expires_at: dt.datetime | None = None
) -> IssuedToken:
    """A new token for `user`: without a name, a login's (it expires after
    TOKEN_LOGIN_HOURS); with one, a named token for a bot or an integration, expiring at
    `expires_at` if given. A login also deletes the user's tokens expired or revoked more
    than TOKENS_REFUSED_KEPT_DAYS ago."""
    return _token_issue_in_tx(user=user, name=name, expires_at=expires_at)


def _token_issue_in_tx(
    *, user: AbstractBaseUser, name: str = "", expires_at: dt.datetime | None = None
) -> IssuedToken:
    now = timezone.now()
    kept_since = now - dt.timedelta(days=TOKENS_REFUSED_KEPT_DAYS)
    AccessToken.objects.filter(
        Q(expires_at__lte=kept_since) | Q(revoked_at__lte=kept_since), user=user
    ).delete()
    if expires_at is not None and expires_at <= now:
        raise ValidationError(
            "expires_at must be in the future",
            extra={"fields": {"expires_at": ["must be in the future"]}, "reason": "out_of_range"},
        )
    if _live_tokens(user, now).count() >= TOKENS_PER_USER:
        raise ConflictError(
            gettext_noop("at most %(most)s tokens per person: revoke some first"),
            params={"most": TOKENS_PER_USER},
            code="too_many_tokens",
        )
    key = access_token_key()
    if name:
        kind, expiry = AccessToken.Kind.NAMED, expires_at
    else:
        kind, expiry = AccessToken.Kind.LOGIN, now + token_login_lifetime()
    token = AccessToken.objects.create(
        digest=token_digest(key), prefix=key[:11], user=user, kind=kind, name=name,
        expires_at=expiry,
    )  # fmt: skip
    return IssuedToken(key=key, token=token)


@write_service
def auth_token_refresh(*, user: AbstractBaseUser, token: object) -> IssuedToken:
    """A login's token renewed: a new one with a whole lifetime (TOKEN_LOGIN_HOURS), and
    the one the request was made with revoked, in one transaction. Only a live login
    token can be renewed (a named token has the expiry its owner chose; a session none)."""
    if not isinstance(token, AccessToken) or token.kind != AccessToken.Kind.LOGIN:
        raise ValidationError(
            gettext_noop("only a login's token can be renewed: log in again"),
            code="not_a_login_token",
        )
    revoked = (
        _live_tokens(user, timezone.now()).filter(pk=token.pk).update(revoked_at=timezone.now())
    )
    if not revoked:  # revoked or expired meanwhile (a second renewal with the same token)
        raise ValidationError(
            gettext_noop("only a login's token can be renewed: log in again"),
            code="not_a_login_token",
        )
    return _token_issue_in_tx(user=user)


@write_service
def auth_token_revoke(*, user: AbstractBaseUser, token_id: int) -> None:
    """Revoke one of the user's own tokens (another person's is not found)."""
    revoked = AccessToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if not revoked:
        raise NotFoundError("no such token", code="token_not_found")


@write_service
def auth_token_revoke_current(*, user: AbstractBaseUser, token: object) -> None:
    """Log out: revoke the token the request was made with (an access token, or one of
    DRF's older tokens, which is deleted)."""
    if isinstance(token, AccessToken):
        AccessToken.objects.filter(pk=token.pk, user=user).update(revoked_at=timezone.now())
    elif isinstance(token, Token):
        Token.objects.filter(pk=token.pk).delete()


@dataclass(frozen=True)
class IssuedLoginCode:
    """A code just issued: `code` exists only here (the database keeps its hash)."""

    code: str
    player: Player
    username: str
    expires_at: dt.datetime


def login_code_normalise(code: str) -> str:
    """What the player typed, as issued: upper case, spaces and dashes dropped, digits in
    any script (a Persian page prints ۲۵۵R-۹QQS) as 0-9."""
    return re.sub(r"[\s\-]", "", ascii_digits(code or "")).upper()


def login_code_display(code: str) -> str:
    """The code as shown to people: two groups of four (ABCD-EFGH)."""
    return f"{code[:4]}-{code[4:]}" if len(code) == LOGIN_CODE_LENGTH else code


def _digest(code: str) -> str:
    # A keyed hash, not a salted password hash: the code is random (no dictionary to try)
    # and must be found by its hash; the key (SECRET_KEY) keeps a leaked table useless.
    return salted_hmac(_KEY_SALT, code, algorithm="sha256").hexdigest()


def _username_for(player: Player) -> str:
    user_model = get_user_model()
    # The name as Latin letters where it is written in them ("Ștefan Ionescu" ->
    # "stefan-ionescu": no diacritics to find on a phone), else in its own script
    # ("ژاله رضایی" -> "ژاله-رضایی": a Persian player read "player-17" as no name of theirs).
    base = slugify(player.name)[:24].strip("-")
    if not base or not any(ch.isalpha() for ch in base):
        own = slugify(player.name.replace("\u200c", ""), allow_unicode=True)
        base = own[:24].strip("-") or base or "player"
    username = f"{base}-{player.pk}"
    while user_model.objects.filter(username=username).exists():
        username = f"{base}-{player.pk}-{secrets.token_hex(2)}"
    return username


@write_service
def player_login_code_issue(
    *, player_id: int, by: AbstractBaseUser, hours: float | None = None
) -> IssuedLoginCode:
    """A new one-time login code for a player without a password (a walk-in gets a login,
    with no usable password, the first time). Any earlier unused code of theirs ends. The
    caller has checked that `by` has authority over the player's account (the desk:
    tournaments.selectors.user_may_act_as_player); the issue is logged once committed."""
    player = (
        Player.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(pk=player_id)
        .first()
    )
    if player is None:
        raise NotFoundError("no such player")
    if not player_may_get_login_code(player=player):
        raise ValidationError(
            gettext_noop("%(name)s signs in with a password: no login code is needed"),
            params={"name": player.name},
            code="login_code_not_allowed",
        )
    if player.user is None:
        user = get_user_model().objects.create_user(username=_username_for(player), password=None)
        player.user = user
        player.save(update_fields=["user"])
    now = timezone.now()
    LoginCode.objects.filter(player=player, used_at__isnull=True, revoked_at__isnull=True).update(
        revoked_at=now
    )
    while True:
        code = "".join(secrets.choice(LOGIN_CODE_ALPHABET) for _ in range(LOGIN_CODE_LENGTH))
        if not LoginCode.objects.filter(digest=_digest(code)).exists():
            break
    if hours is None:
        hours = getattr(settings, "LOGIN_CODE_HOURS", LOGIN_CODE_HOURS_DEFAULT)
    row = LoginCode.objects.create(
        player=player,
        digest=_digest(code),
        issued_by=by,
        issued_at=now,
        expires_at=now + dt.timedelta(hours=hours),
    )
    issued_by, player_id = by.pk, player.pk
    transaction.on_commit(
        lambda: accounts_log.info(
            "sign-in code issued for player %s by user %s",
            player_id,
            issued_by,
            extra={"event": "login_code_issued", "player_id": player_id, "issued_by": issued_by},
        )
    )
    return IssuedLoginCode(
        code=code, player=player, username=player.user.get_username(), expires_at=row.expires_at
    )


@write_service
def player_login_code_use(*, code: str) -> AbstractBaseUser:
    """The login a one-time code opens; the code is used up. A code that is wrong, used,
    replaced or expired raises ValidationError `login_code_invalid`, with nothing written
    (the caller counts the failure against the client: core.login_throttle)."""
    normalised = login_code_normalise(code)
    row = None
    if len(normalised) == LOGIN_CODE_LENGTH:
        row = (
            LoginCode.objects.select_for_update(of=("self",))
            .select_related("player__user")
            .filter(
                digest=_digest(normalised),
                used_at__isnull=True,
                revoked_at__isnull=True,
                expires_at__gt=timezone.now(),
            )
            .first()
        )
    user = row.player.user if row is not None else None
    if user is None or not user.is_active:
        raise ValidationError(
            "That code is not valid: it may be mistyped, used or expired. Ask the desk.",
            code="login_code_invalid",
        )
    row.used_at = timezone.now()
    row.save(update_fields=["used_at"])
    return user


@write_service
def user_password_set(*, user: AbstractBaseUser, password: str) -> None:
    """Set the user's password (validated by the caller's form); their unused login codes
    end, since they now sign in with it."""
    user.set_password(password)
    user.save(update_fields=["password"])
    LoginCode.objects.filter(
        player__user=user, used_at__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())


# --- staff sign-in links -------------------------------------------------------------------
# A way back in for staff and organisers whose password logins are locked out (or forgotten),
# from the command line (`manage.py staff_signin_link`): a signed link, apart from the
# players' codes, that hashes no password. It opens its account once: it is bound to the
# account's last sign-in and password, which its use changes.
_SIGNIN_SALT = "players.staff_signin_link"


class SigninLinkError(ValidationError):
    code = "signin_link_invalid"


def staff_signin_token_issue(*, username: str) -> str:
    """The token of a one-time sign-in link for `username`, an active member of staff or
    organiser (SigninLinkError otherwise: players sign in with the desk's codes)."""
    user = get_user_model().objects.filter(**{get_user_model().USERNAME_FIELD: username}).first()
    if user is None or not user.is_active or not user_is_organiser(user=user):
        raise SigninLinkError(
            gettext_noop(
                "%(username)s is not an active member of staff or organiser: no link for them"
            ),
            params={"username": repr(username)},
        )
    return signing.dumps({"u": user.pk, "s": _signin_state(user)}, salt=_SIGNIN_SALT)


def _signin_state(user: AbstractBaseUser) -> str:
    state = f"{user.pk}:{user.password}:{user.last_login.isoformat() if user.last_login else ''}"
    return salted_hmac(_SIGNIN_SALT, state).hexdigest()


@write_service
def staff_signin_token_use(*, token: str) -> AbstractBaseUser:
    """The account a sign-in link's token opens, used up (its last sign-in is now). A token
    that is forged, expired (STAFF_SIGNIN_LINK_MINUTES), used, or whose account changed or
    may no longer organise raises SigninLinkError, with nothing written."""
    invalid = SigninLinkError("This sign-in link is not valid: it may be used or expired.")
    try:
        data = signing.loads(
            token, salt=_SIGNIN_SALT, max_age=settings.STAFF_SIGNIN_LINK_MINUTES * 60
        )
        user_id, state = data["u"], data["s"]
    except (signing.BadSignature, TypeError, KeyError) as exc:
        raise invalid from exc
    # Locked: of two uses at once, the second sees the first's sign-in and is refused.
    user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
    if user is None or not user.is_active or not user_is_organiser(user=user):
        raise invalid
    if not isinstance(state, str) or not constant_time_compare(_signin_state(user), state):
        raise invalid
    user.last_login = timezone.now()
    user.save(update_fields=["last_login"])
    return user


@write_service
def player_language_set(*, user: AbstractBaseUser, language: str) -> bool:
    """Keep the user's choice of language on their player ("" forgets it); False when the
    user has no player (the cookie keeps it then)."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValidationError("unknown language", code="language", extra={"fields": ["language"]})
    return bool(Player.objects.filter(user=user).update(language=language))


def login_codes_prune() -> int:
    """Login codes used, expired or revoked more than LOGIN_CODES_KEEP_DAYS ago, deleted in
    batches (the retention job: core.retention). An unused, unexpired code is kept."""
    cut = timezone.now() - dt.timedelta(days=float(settings.LOGIN_CODES_KEEP_DAYS))
    ended = Q(used_at__lt=cut) | Q(expires_at__lt=cut) | Q(revoked_at__lt=cut)
    return delete_in_batches(LoginCode.objects.filter(ended))
