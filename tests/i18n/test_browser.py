"""The club's own language in a real browser (Debian's headless chromium): a short evening
in Persian on a 390 px phone and on the desk, and the public page, a print and the replay
in each language. Screenshots go to tests/artifacts/screenshots/i18n-*.png for a person to
look at (the right-to-left ones especially). Run alone: pytest -m browser tests/i18n."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings

from games.hand_entries import HandEntry
from players.services import player_create
from tests.fixtures.desk import sign_in
from tests.web.desk.helpers import no_sideways_scroll, organiser, shoot
from tournaments import services
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
PERSIAN_NAMES = ("آرش", "بهرام")
LANGUAGES = [code for code, _name in settings.LANGUAGES]


def _persian_evening(td) -> Tournament:
    t = services.tournament_create(
        name="شب سه‌شنبه",
        format="swiss",
        created_by=td,
        rounds=2,
        play_mode="table",
        time_zone="Asia/Tehran",
        starts_at=dt.datetime(2026, 12, 1, 16, 0, tzinfo=dt.UTC),
        ruleset={"games": 1, "game_target": 10},
    )
    services.tournament_settings_change(tournament_id=t.pk, by=td, changes={"language": "fa"})
    for name in PERSIAN_NAMES:
        player = player_create(name=name, username=f"p{PERSIAN_NAMES.index(name)}",
                               password="pw-desk-123")  # fmt: skip
        services.tournament_register(tournament_id=t.pk, player=player, by=td)
        services.tournament_check_in(tournament_id=t.pk, player=player, by=td)
    services.tournament_start(tournament_id=t.pk, by=td)
    return Tournament.objects.get(pk=t.pk)


def _rtl(page) -> bool:
    return page.evaluate(
        "document.documentElement.dir === 'rtl' && document.documentElement.lang === 'fa'"
    )


def test_a_persian_evening_on_a_phone_and_on_the_desk(live_server, browser):
    td = organiser("td")
    t = _persian_evening(td)
    base = live_server.url
    pairing = Pairing.objects.get(round__tournament=t, table=1)
    first = pairing.player1.user.username
    second = pairing.player2.user.username

    # The first player's phone (a Persian browser): enters the hand in Persian digits.
    phone = browser.new_context(viewport=PHONE, locale="fa-IR").new_page()
    sign_in(phone, base, first, f"/tables/{pairing.match_id}/")
    assert _rtl(phone)
    assert "وارد کردن دست ۱" in phone.inner_text("main")
    shoot(phone, "i18n-fa-phone-enter")
    assert no_sideways_scroll(phone)
    phone.check("input[name=result][value=p1]")
    phone.fill("input[name=knocker_deadwood]", "۳")
    phone.fill("input[name=defender_deadwood]", "۲۲")
    phone.click("#hand-form button[type=submit]")
    phone.wait_for_selector("text=در انتظار تأیید حریف")
    shoot(phone, "i18n-fa-phone-waiting")

    # The opponent's phone confirms: the match (one game to 10) is over.
    other = browser.new_context(viewport=PHONE, locale="fa-IR").new_page()
    sign_in(other, base, second, f"/tables/{pairing.match_id}/")
    assert "۳ / ۲۲" in other.inner_text("#open-entry")
    other.click("button[value=confirm]")
    other.wait_for_selector("text=مسابقه پایان یافته است.")
    shoot(other, "i18n-fa-phone-confirmed")
    assert no_sideways_scroll(other)
    pairing.refresh_from_db()
    hand = pairing.match.hands.get()
    assert (hand.knocker_deadwood, hand.defender_deadwood) == (3, 22)

    # The desk, in Persian at 390 px and on a wide screen: the round and the standings.
    for name, viewport in (("phone", PHONE), ("desk", DESK)):
        desk = browser.new_context(viewport=viewport, locale="fa-IR").new_page()
        sign_in(desk, base, "td", f"/desk/{t.pk}/rounds/1/")
        assert _rtl(desk)
        text = desk.inner_text("main")
        assert "دور ۱" in text and PERSIAN_NAMES[0] in text
        shoot(desk, f"i18n-fa-{name}-round")
        assert no_sideways_scroll(desk)
        desk.goto(f"{base}/desk/{t.pk}/")
        assert "۱۰ آذر ۱۴۰۵" in desk.inner_text("main")  # the start, Solar Hijri
        shoot(desk, f"i18n-fa-{name}-tournament")
        assert no_sideways_scroll(desk)
        # The header sits right to left: the brand at the right edge of the page.
        brand = desk.locator("header .brand").bounding_box()
        assert brand["x"] + brand["width"] > viewport["width"] * 0.5


def _evening_with_a_played_match(td) -> tuple[Tournament, Pairing]:
    t = services.tournament_create(
        name="Evening", format="swiss", created_by=td, rounds=2, play_mode="table",
        time_zone="Europe/Bucharest", ruleset={"games": 1, "game_target": 10},
    )  # fmt: skip
    for name in ("Ștefan Ionescu", "Žygimantas Ūsas"):
        player = player_create(name=name)
        services.tournament_register(tournament_id=t.pk, player=player, by=td)
        services.tournament_check_in(tournament_id=t.pk, player=player, by=td)
    services.tournament_start(tournament_id=t.pk, by=td)
    pairing = Pairing.objects.get(round__tournament=t, table=1)
    from games.services import match_record_hand

    match_record_hand(
        match_id=pairing.match_id,
        by=td,
        hand=HandEntry(
            knocker=pairing.player1.pk, gin=False, knocker_deadwood=4, defender_deadwood=30
        ),
    )
    return Tournament.objects.get(pk=t.pk), pairing


# The words each page must show in its language (from the catalogues).
WORDS = {
    "en": ("Standings", "pairings by table", "Fairness checks"),
    "ro": ("Clasament", "împerecheri pe mese", "Verificări de corectitudine"),
    "de": ("Rangliste", "Paarungen nach Tisch", "Fairness-Prüfungen"),
    "lt": ("Turnyrinė lentelė", "poros pagal stalus", "Sąžiningumo patikrinimai"),
    "fa": ("جدول رده‌بندی", "جفت‌ها بر پایهٔ میز", "بررسی‌های انصاف"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_public_page_a_print_and_the_replay_in_each_language(live_server, browser, language):
    td = organiser("td")
    t, pairing = _evening_with_a_played_match(td)
    base = live_server.url
    standings, pairings, checks = WORDS[language]
    context = browser.new_context(viewport=DESK, locale=language)
    page = context.new_page()

    page.goto(f"{base}/tournaments/{t.pk}/?lang={language}")  # the wall screen's switch
    assert page.evaluate("document.documentElement.lang") == language
    assert standings in page.inner_text("main")
    shoot(page, f"i18n-{language}-public")

    sign_in(page, base, "td", f"/desk/{t.pk}/rounds/1/pairings/print/?lang={language}")
    assert pairings in page.inner_text("main")
    page.emulate_media(media="print")
    shoot(page, f"i18n-{language}-print-pairings")
    page.emulate_media(media="screen")

    page.goto(f"{base}/matches/{pairing.match_id}/replay/")  # the browser's language
    page.wait_for_selector("#checks-summary[data-state]")
    assert checks in page.inner_text("main")
    assert page.evaluate("document.documentElement.dir") == ("rtl" if language == "fa" else "ltr")
    title = page.inner_text("#event-title")
    assert title and "%(" not in title  # interpolated, in words
    shoot(page, f"i18n-{language}-replay")
    if language == "fa":
        phone = browser.new_context(viewport=PHONE, locale="fa").new_page()
        phone.goto(f"{base}/matches/{pairing.match_id}/replay/")
        phone.wait_for_selector("#checks-summary[data-state]")
        shoot(phone, "i18n-fa-phone-replay")
        assert no_sideways_scroll(phone)
    context.close()


# --- the play page and a desk page at 390 px in Persian and Lithuanian --------------------

# The play page's knock button (a verb) and how a card's name opens, in each language.
PLAY_WORDS = {
    "fa": ("در بزن", ("گشنیز", "خشت", "دل", "پیک")),
    "lt": ("Belsti", ("Kryžių", "Būgnų", "Širdžių", "Pikų")),
}


@pytest.mark.parametrize("language", ["fa", "lt"])
def test_the_play_page_and_the_desk_at_390_px(asgi, browser, language):
    from tests.web.play.browser import sign_in as player_sign_in
    from tests.web.play.helpers import PASSWORD, online_match

    ada = player_create(name="آرش" if language == "fa" else "Žygimantas", username="ada",
                        password=PASSWORD)  # fmt: skip
    ben = player_create(name="Ben", username="ben", password=PASSWORD)
    match = online_match(ada, ben, seed=f"i18n-{language}")  # Ada deals: Ben has the upcard
    knock, suits = PLAY_WORDS[language]
    page = browser.new_context(viewport=PHONE, locale=language).new_page()
    player_sign_in(page, asgi, "ben", PASSWORD)
    page.goto(f"{asgi}/play/{match.pk}/")
    page.wait_for_selector("#play[data-phase=first-turn]")
    assert page.evaluate("document.documentElement.lang") == language
    page.click("[data-action=take-upcard]")
    page.wait_for_selector("#play[data-phase=discard]")
    page.click("[data-hand] [data-card]")
    assert page.inner_text("[data-action=knock]").strip() == knock
    labels = page.eval_on_selector_all(
        "[data-hand] [aria-label]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels and all(any(suit in label for suit in suits) for label in labels), labels
    assert all(" of " not in label for label in labels)
    shoot(page, f"i18n-{language}-phone-play")
    assert no_sideways_scroll(page)

    td = organiser("td")
    t = services.tournament_create(name="Vakaras" if language == "lt" else "شب سه‌شنبه",
                                   format="swiss", created_by=td, rounds=2, play_mode="table",
                                   time_zone="Europe/Vilnius", language=language)  # fmt: skip
    for player in (ada, ben):
        services.tournament_register(tournament_id=t.pk, player=player, by=td)
    desk = browser.new_context(viewport=PHONE, locale=language).new_page()
    sign_in(desk, asgi, "td", f"/desk/{t.pk}/")
    assert desk.evaluate("document.documentElement.lang") == language
    assert desk.locator("#id_language").input_value() == language
    shoot(desk, f"i18n-{language}-phone-desk-tournament")
    assert no_sideways_scroll(desk)
