"""One-time login codes (players.services): issued for a player without a password, kept
only as a keyed hash, used once, until they expire or a newer code replaces them."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from core.errors import NotFoundError, ValidationError
from players.models import LoginCode
from players.selectors import ORGANISERS_GROUP, login_codes_active
from players.services import (
    LOGIN_CODE_ALPHABET,
    LOGIN_CODE_LENGTH,
    login_code_display,
    player_create,
    player_login_code_issue,
    player_login_code_use,
    user_password_set,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return get_user_model().objects.create_user(username="td-codes", password="pw-desk-123")


def test_a_walk_in_gets_a_login_without_a_password_and_a_code(td):
    walk_in = player_create(name="Zoë Walk-In")
    issued = player_login_code_issue(player_id=walk_in.pk, by=td)
    walk_in.refresh_from_db()
    assert walk_in.user is not None and not walk_in.user.has_usable_password()
    assert issued.username == walk_in.user.username
    assert len(issued.code) == LOGIN_CODE_LENGTH
    assert set(issued.code) <= set(LOGIN_CODE_ALPHABET)
    assert issued.expires_at - timezone.now() > dt.timedelta(hours=23)
    assert player_login_code_use(code=login_code_display(issued.code).lower()) == walk_in.user


def test_the_code_is_not_stored_in_clear(td):
    walk_in = player_create(name="Ann")
    issued = player_login_code_issue(player_id=walk_in.pk, by=td)
    row = LoginCode.objects.get()
    stored = [str(v) for v in LoginCode.objects.values_list().get()]
    assert all(issued.code not in value for value in stored)
    assert len(row.digest) == 64 and row.issued_by == td


def test_a_code_is_used_once(td):
    issued = player_login_code_issue(player_id=player_create(name="Ann").pk, by=td)
    player_login_code_use(code=issued.code)
    with pytest.raises(ValidationError) as caught:
        player_login_code_use(code=issued.code)
    assert caught.value.code == "login_code_invalid"


def test_an_expired_code_is_refused(td):
    issued = player_login_code_issue(player_id=player_create(name="Ann").pk, by=td)
    LoginCode.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    with pytest.raises(ValidationError):
        player_login_code_use(code=issued.code)
    assert login_codes_active(player_ids=[issued.player.pk]) == {}


def test_a_new_code_replaces_the_last(td):
    ann = player_create(name="Ann")
    first = player_login_code_issue(player_id=ann.pk, by=td)
    second = player_login_code_issue(player_id=ann.pk, by=td)
    with pytest.raises(ValidationError):
        player_login_code_use(code=first.code)
    assert player_login_code_use(code=second.code) == second.player.user
    assert LoginCode.objects.filter(player=ann).count() == 2


@pytest.mark.parametrize("code", ["", "ABCD", "ABCD-EFGH-JKMN", "0000-0000"])
def test_a_wrong_code_is_refused_and_nothing_is_written(td, code):
    player_login_code_issue(player_id=player_create(name="Ann").pk, by=td)
    with pytest.raises(ValidationError):
        player_login_code_use(code=code)
    assert LoginCode.objects.get().used_at is None


def test_no_code_for_a_password_a_bot_or_an_organiser(td):
    with_password = player_create(name="Pat", username="pat", password="pw-pat-1234")
    bot = player_create(name="Bot", is_bot=True)
    organiser = player_create(name="Olive", username="olive-codes")
    organiser.user.set_unusable_password()
    organiser.user.save()
    organiser.user.groups.add(Group.objects.get_or_create(name=ORGANISERS_GROUP)[0])
    for player in (with_password, bot, organiser):
        with pytest.raises(ValidationError) as caught:
            player_login_code_issue(player_id=player.pk, by=td)
        assert caught.value.code == "login_code_not_allowed"
    with pytest.raises(NotFoundError):
        player_login_code_issue(player_id=10**9, by=td)
    assert not LoginCode.objects.exists()


def test_setting_a_password_ends_the_unused_codes(td):
    ann = player_create(name="Ann")
    issued = player_login_code_issue(player_id=ann.pk, by=td)
    ann.refresh_from_db()
    user_password_set(user=ann.user, password="ann-new-pass-1")
    ann.user.refresh_from_db()
    assert ann.user.check_password("ann-new-pass-1")
    with pytest.raises(ValidationError):
        player_login_code_use(code=issued.code)


@pytest.mark.parametrize("digits", ["۰۱۲۳۴۵۶۷۸۹", "٠١٢٣٤٥٦٧٨٩"], ids=["persian", "arabic_indic"])
def test_a_code_typed_with_the_digits_a_page_printed_is_taken(td, digits):
    """Issue 37, item 1: the desk's code card on a Persian page shows `۲۵۵R-۹QQS`; typed as
    shown, it signs in (it was refused; only Latin digits worked)."""
    walk_in = player_create(name="Zhaleh")
    issued = player_login_code_issue(player_id=walk_in.pk, by=td)
    while not any(c.isdigit() for c in issued.code):  # a code with a digit (most have some)
        issued = player_login_code_issue(player_id=walk_in.pk, by=td)
    shown = login_code_display(issued.code).translate(str.maketrans("0123456789", digits))
    assert shown.isascii() is False
    walk_in.refresh_from_db()
    assert player_login_code_use(code=shown) == walk_in.user


def test_a_persian_walk_in_gets_a_username_of_their_own_name_and_signs_in_with_persian_digits(
    td, client
):
    """Issue 37, item 7: Persian players got usernames like "player-17"."""
    walk_in = player_create(name="ژاله رضایی")
    issued = player_login_code_issue(player_id=walk_in.pk, by=td)
    assert issued.username == f"ژاله-رضایی-{walk_in.pk}", issued.username
    latin = player_create(name="Ștefan Ionescu")
    assert player_login_code_issue(player_id=latin.pk, by=td).username == (
        f"stefan-ionescu-{latin.pk}"
    )
    user_password_set(
        user=get_user_model().objects.get(username=issued.username), password="pw-zh-12345"
    )
    typed = issued.username.translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
    response = client.post("/desk/login/", {"username": typed, "password": "pw-zh-12345"})
    assert response.status_code == 302 and response["Location"] == "/me/", response.status_code
