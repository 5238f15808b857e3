"""Accessibility as a promise (issue 37): axe-core (WCAG 2.2 AA: wcag2a, wcag2aa, wcag21a,
wcag21aa, wcag22aa) finds no serious or critical violation on any kind of page, in English
and in Persian (right to left): the public pages, the players' pages (the play page with a
hand in progress, practice, my evening, my entries, the phone's table page), the desk's
(home, tournament, round, table, the match sheet, the prints, …) and the sign-in pages.

The data is built once a language (one test a language, every page kind inside it); each
page's violations are gathered, and the test fails naming each page and rule at once."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from demo.club_evenings import club_evening_play
from games.engine.bot import choose_action
from games.hand_entries import HandEntry
from games.selectors import match_state_at
from games.services import match_act, match_record_hand
from games.services.disputes import match_dispute_open
from games.services.practice import practice_start
from players.models import Club, Player
from players.services import login_code_display, player_create, player_login_code_issue
from tests.fixtures.desk import sign_in as desk_sign_in
from tests.tournaments.exchange.helpers import exchange_text, random_team_event
from tests.tournaments.helpers import FAST_RULES, forfeit_round
from tests.web.a11y import axe_violations, described
from tests.web.desk.helpers import organiser, shoot, started_with_logins
from tests.web.play.browser import sign_in as player_sign_in
from tests.web.play.helpers import PASSWORD, online_match, players, team_event_with_captains
from tournaments import services
from tournaments.exchange.imports import team_event_import
from tournaments.federation.files import MemberRow
from tournaments.federation.services import federation_get_or_create, federation_members_import
from tournaments.models import Pairing
from tournaments.ratings.services import club_ratings_sync, season_create

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _until_my_turn(match: Any, me: Any) -> None:
    """The opponent moves (as the bot would, through the service) until it is `me`'s turn."""
    for _ in range(10):
        state, version = match_state_at(match=match)
        seat = state.turn
        player = match.player1 if seat == 0 else match.player2
        if player.pk == me.pk:
            return
        match_act(
            match_id=match.pk, player=player, action=choose_action(state, seat),
            expected_version=version,
        )  # fmt: skip
    raise AssertionError("never my turn")


def _world() -> dict[str, Any]:
    """Every kind of thing a page shows: a club with a finished evening (ratings, a season),
    tonight's started table tournament whose players sign in, an online match with a hand in
    progress, a practice match, a team event."""
    td = organiser("td")
    club = Club.objects.create(name="Tuesday Gin Club", slug="tuesday", time_zone="Asia/Tehran")
    club.organisers.add(td)
    members = [Player.objects.create(name=n) for n in ("Ann Ionescu", "Ben Müller", "ژاله", "Dan")]
    club.members.add(*members)
    past = club_evening_play(
        club=club, organiser=td, players=members, rounds=2, rng=random.Random(4), name="Evening 1"
    )
    today = dt.date.today()
    season = season_create(
        club_id=club.pk, by=td, name="Winter", starts_on=today - dt.timedelta(days=7),
        ends_on=today + dt.timedelta(days=60), place_points=[10, 6, 3, 1],
    )  # fmt: skip
    tonight = started_with_logins(td, names=("Anna", "Boris", "Cyrus", "Dora"), club=club)
    pairing = Pairing.objects.filter(round__tournament=tonight).order_by("table").first()
    # Two hands at table 1, the second player disputing the first: the correction and the
    # dispute pages, and the phone's page with a sheet.
    match = pairing.match
    for _ in range(2):
        match_record_hand(
            match_id=match.pk, by=td,
            hand=HandEntry(knocker=match.player1.pk, knocker_deadwood=5, defender_deadwood=25),
        )  # fmt: skip
    match_dispute_open(
        match_id=match.pk, player=match.player2, hand_number=1, statement="It was 15, not 5."
    )
    knockout = services.tournament_create(
        name="Knockout Friday", format="knockout", rounds=None, created_by=td, ruleset=FAST_RULES
    )
    for name in ("Kian", "Lena", "Mina", "Nika", "Omid", "Pari"):
        player = player_create(name=name)
        services.tournament_register(tournament_id=knockout.pk, player=player, by=td)
        services.tournament_check_in(tournament_id=knockout.pk, player=player, by=td)
    services.tournament_start(tournament_id=knockout.pk, by=td)
    forfeit_round(knockout, td)
    ada, ben = players("Ada", "Ben")
    online = online_match(ada, ben, seed="a11y-pages")
    _until_my_turn(online, ada)
    practice = practice_start(player=ada, ruleset={"game_target": 25, "games": 1}, seed="a11y")
    team_event = team_event_import(
        text=exchange_text(random_team_event(8, teams=4, boards=2, fmt="team_swiss")), by=td
    )
    past_match = Pairing.objects.filter(round__tournament=past).first().match_id
    # A federation of the club: its member list (one linked, one new) and its ratings.
    federation = federation_get_or_create(name="Gin Federation", club_slugs=["tuesday"])
    federation_members_import(
        federation=federation,
        rows=[
            MemberRow(1, "RO-1001", "Ann Ionescu", club.name, 1980, "RO"),
            MemberRow(2, "IR-2002", "ژینا", club.name, None, "IR"),
        ],
    )
    club_ratings_sync(tournament_id=past.pk)
    walk_in = Player.objects.get(name="Kian")  # entered by name: signs in with a code
    code = login_code_display(player_login_code_issue(player_id=walk_in.pk, by=td).code)
    captained, _ = team_event_with_captains(td, name="Club league")  # captain: "lions"
    return {
        "td": td, "club": club, "season": season, "past": past, "tonight": tonight,
        "pairing": pairing, "ada": ada, "online": online, "practice": practice,
        "team_event": team_event, "past_match": past_match, "member": members[0],
        "knockout": knockout, "federation": federation, "code": code, "captained": captained,
    }  # fmt: skip


def _pages(w: dict[str, Any], lang: str) -> dict[str, list[tuple[str, str]]]:
    """Each signed-in person's pages: (kind, path)."""
    t, c, s, f = w["tonight"].pk, w["club"], w["season"], w["federation"].pk
    table = w["pairing"].table
    r = f"/desk/{t}/rounds/1/"
    at = f"{r}tables/{table}/"
    view = f"?lang={lang}"  # prints and the wall take the tournament's language otherwise
    return {
        "anonymous": [
            ("home", "/"),
            ("desk login", "/desk/login/"),
            ("public tournament", f"/tournaments/{t}/"),
            ("finished tournament", f"/tournaments/{w['past'].pk}/"),
            ("knockout bracket", f"/tournaments/{w['knockout'].pk}/"),
            ("wall screen", f"/tournaments/{t}/wall/{view}"),
            ("match page", f"/matches/{w['past_match']}/"),
            ("replay", f"/matches/{w['past_match']}/replay/"),
            ("club page", f"/clubs/{c.slug}/"),
            ("season page", f"/clubs/{c.slug}/seasons/{s.pk}/"),
            ("player page", f"/players/{w['member'].pk}/"),
            ("team event", f"/team-events/{w['team_event'].pk}/"),
            ("team event wall", f"/team-events/{w['team_event'].pk}/wall/{view}"),
            ("players' help", "/help/"),
            ("staff sign-in link", "/desk/login/staff/no-such-token/"),
            ("manual", "/docs/"),
            ("manual page", "/docs/organisers/desk/"),
        ],
        "td": [
            ("desk home", "/desk/"),
            # The public pages signed in: the header names who (and offers the desk).
            ("home, signed in", "/"),
            ("public tournament, signed in", f"/tournaments/{t}/"),
            ("new tournament", "/desk/new/"),
            ("desk tournament", f"/desk/{t}/"),
            ("desk finished tournament", f"/desk/{w['past'].pk}/"),
            ("desk check-in", f"/desk/{t}/check-in/"),
            ("desk entries", f"/desk/{t}/entries/"),
            ("desk cash", f"/desk/{t}/cash/{view}"),
            ("desk pairs apart", f"/desk/{t}/pairs-apart/"),
            ("desk disputes", f"/desk/{t}/disputes/"),
            ("desk new member", f"/desk/{t}/member/"),
            ("desk round", r),
            ("desk table", at),
            ("desk hand correction", f"{at}hands/1/"),
            ("desk dispute", f"/desk/{t}/disputes/{w['pairing'].match_id}/1/"),
            ("desk knockout", f"/desk/{w['knockout'].pk}/"),
            ("print bracket", f"/desk/{w['knockout'].pk}/bracket/{view}"),
            ("match sheet", f"{at}sheet/"),
            ("desk match", f"/desk/matches/{w['pairing'].match_id}/"),
            ("desk team events", "/desk/team-events/"),
            ("desk team event", f"/desk/team-events/{w['team_event'].pk}/"),
            ("desk club seasons", f"/desk/clubs/{c.pk}/seasons/"),
            ("desk season", f"/desk/clubs/{c.pk}/seasons/{s.pk}/"),
            ("print pairings", f"{r}pairings/print/{view}"),
            ("print slips", f"{r}slips/print/{view}"),
            ("print standings", f"/desk/{t}/standings/print/{view}"),
            ("print scoresheet", f"{at}print/{view}"),
            ("print blank scoresheet", f"/desk/{t}/scoresheet/blank/{view}"),
            ("print login codes", f"POST /desk/{t}/login-codes/print/{view}"),
            ("desk federations", "/desk/federations/"),
            ("desk federation members", f"/desk/federations/{f}/members/"),
            ("desk federation reports", f"/desk/federations/{f}/reports/"),
        ],
        "ada": [
            ("my evening", "/me/"),
            ("my entries", "/me/entries/"),
            ("lobby", "/play/"),
            ("play page (my turn)", f"/play/{w['online'].pk}/"),
            ("practice", f"/play/{w['practice'].pk}/"),
        ],
        "walk-in": [("set a password after a code", "/desk/password/")],
        "anna": [
            ("phone's table page", f"/tables/{w['pairing'].match_id}/"),
            ("my evening at a table", "/me/"),
        ],
        "lions": [
            ("my evening, a captain", "/me/"),
            ("captain's page", f"/me/teams/{w['captained'].pk}/"),
        ],
    }


def _context(browser: Any, base: str, lang: str, width: int) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": 900}, locale=lang,
        extra_http_headers={"Accept-Language": lang},
    )  # fmt: skip
    context.add_cookies([{"name": "hg_language", "value": lang, "url": base}])
    return context


def _signed_in(browser: Any, base: str, lang: str, who: str, width: int, code: str = "") -> Any:
    page = _context(browser, base, lang, width).new_page()
    if who == "td":
        desk_sign_in(page, base)
    elif who in ("ada", "lions"):
        player_sign_in(page, base, who, PASSWORD)
    elif who == "walk-in":
        page.goto(f"{base}/desk/login/")
        page.fill("#id_code", code)
        page.click("#code-login button[type=submit]")
        page.wait_for_selector("#go-on")
    elif who == "anna":
        page.goto(f"{base}/desk/login/")
        page.fill("#id_username", "anna")
        page.fill("#id_password", "pw-desk-123")
        page.click("form:not(#code-login) button[type=submit]")
        page.wait_for_url("**/me/")
    return page


# A page a form posts to (printing login codes issues them): the form as the desk's button
# sends it, with the CSRF token of a desk page.
POST_FORM = """path => { const f = document.createElement('form'); f.method = 'post';
  f.action = path; const token = document.createElement('input');
  token.name = 'csrfmiddlewaretoken';
  token.value = document.querySelector('[name=csrfmiddlewaretoken]').value;
  f.append(token); document.body.append(f); f.submit(); }"""


def _open(page: Any, base: str, path: str) -> Any:
    if not path.startswith("POST "):
        return page.goto(f"{base}{path}")
    page.goto(f"{base}/desk/")
    with page.expect_navigation() as navigation:
        page.evaluate(POST_FORM, path.removeprefix("POST "))
    return navigation.value


def _settled(page: Any, path: str) -> None:
    """The page as a person reads it: the play page rendered and live."""
    page.wait_for_load_state("load")
    if path.startswith("/me/teams/"):
        page.wait_for_selector(".lineup-list.sortable")  # the rows as the script makes them
    if path.startswith("/play/") and path != "/play/":
        page.wait_for_selector("[data-hand] [data-card]")
        page.wait_for_selector("[data-live-indicator][data-state=live]")


@pytest.mark.parametrize("width", [1280, 390])  # a laptop, a phone (wide tables scroll)
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_no_serious_or_critical_violation_on_any_page_kind(asgi, browser, lang, width) -> None:
    world = _world()
    found: dict[str, str] = {}
    visited, kinds = 0, _pages(world, lang)
    for who, pages in kinds.items():
        page = _signed_in(browser, asgi, lang, who, width, code=world["code"])
        for kind, path in pages:
            response = _open(page, asgi, path)
            assert response is not None and response.status == 200, (kind, path, response)
            path = path.removeprefix("POST ")
            _settled(page, path)
            if path.startswith("/docs/"):  # the manual is written in English (MkDocs)
                assert page.get_attribute("html", "lang") == "en", (kind, path)
            else:
                assert page.get_attribute("html", "lang") == lang, (kind, path)
                assert page.get_attribute("html", "dir") == ("rtl" if lang == "fa" else "ltr")
            violations = axe_violations(page)
            if violations:
                found[f"{kind} ({path})"] = described(violations)
                shoot(page, f"a11y-{lang}-{width}-{kind.replace(' ', '-')}")
            visited += 1
        page.context.close()
    assert visited == sum(len(pages) for pages in kinds.values()) >= 38
    report = "\n\n".join(f"{kind}:\n{text}" for kind, text in found.items())
    assert not found, (
        f"axe (WCAG 2.2 AA), {lang} at {width} px: serious or critical violations\n\n{report}"
    )


# The focused element's outline (style, width) and its contrast with the background around
# it (the nearest ancestor's with a colour): WCAG 1.4.11 asks 3:1 of a focus indicator.
FOCUS_STYLE = """(() => {
  const e = document.activeElement; if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  let around = [255, 255, 255];
  for (let p = e.parentElement; p; p = p.parentElement) {
    const c = rgb(getComputedStyle(p).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0)) { around = c.slice(0, 3); break; }
  }
  const [a, b] = [lum(rgb(s.outlineColor)), lum(around)].sort((x, y) => y - x);
  return [e.tagName + (e.id ? '#' + e.id : '') + (e.dataset.card ? '[' + e.dataset.card + ']' : ''),
          s.outlineStyle, parseFloat(s.outlineWidth), (a + 0.05) / (b + 0.05)];
})()"""


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_focus_is_visible_on_every_kind_of_page(asgi, browser, lang) -> None:
    """Tab through the first places of each family of pages (public, desk, players', play):
    wherever the focus lands, a :focus-visible outline marks it (computed style)."""
    td = organiser("td")
    t = started_with_logins(td, names=("Anna", "Boris")).pk
    ada, ben = players("Ada", "Ben")
    online = online_match(ada, ben, seed="focus")
    kinds = {
        "anonymous": ["/", f"/tournaments/{t}/", "/desk/login/"],
        "td": ["/desk/", f"/desk/{t}/", f"/desk/{t}/rounds/1/"],
        "ada": ["/me/", f"/play/{online.pk}/"],
    }
    unmarked = []
    for who, paths in kinds.items():
        page = _signed_in(browser, asgi, lang, who, 1280)
        for path in paths:
            page.goto(f"{asgi}{path}")
            _settled(page, path)
            for _ in range(25):
                page.keyboard.press("Tab")
                focused = page.evaluate(FOCUS_STYLE)
                if focused is None:
                    continue
                where, style, width, contrast = focused
                if style != "solid" or width < 2 or contrast < 3:
                    unmarked.append(f"{path} {where}: outline {style} {width}px, {contrast:.2f}:1")
            if path.startswith("/play/"):
                shoot(page, f"a11y-{lang}-play-focus-visible", full_page=False)
        page.context.close()
    assert not unmarked, "focus not visibly marked:\n" + "\n".join(unmarked)
