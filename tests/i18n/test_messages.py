"""Messages built with values in the reader's language (README, "Languages"): the engine's
rule errors and the services' errors are templates with named placeholders, shown at the API
(and the desk) in the request's language with the values filled in, the codes English; a
tournament's own language, set when it is made and changed later, in its events."""

from __future__ import annotations

import ast
import json
import pathlib
import re

import pytest
from django.utils import translation

import eventstore
from games.rule_messages import RULE_MESSAGES, RULE_SECTIONS
from players.models import Club
from tests.games.apis.helpers import ANN, act, preset_deck
from tests.web.desk.helpers import organiser as desk_organiser
from tests.web.desk.helpers import started
from tournaments.models import Tournament
from web.play.strings import play_strings

pytestmark = pytest.mark.django_db

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "games" / "engine"
PREFIX = re.compile(r"(\d+) ([^:]+): (.+)", re.DOTALL)


def _engine_templates() -> tuple[set[str], set[str]]:
    """Every message template the engine raises a rule error with (its rule's reference
    apart), and the sections those references name."""
    bodies, sections = set(), set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                first = node.exc.args[0]
                name = getattr(node.exc.func, "id", "")
                if (
                    name.endswith("Error")
                    and name != "TypeError"
                    and isinstance(first, ast.Constant)
                ):
                    text = first.value
                    if match := PREFIX.fullmatch(text):
                        sections.add(match[2])
                        text = match[3]
                    bodies.add(text)
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "").endswith(
                "_MESSAGES"
            ):  # whole sentences the engine picks from (one per verb, per kind of text)
                for value in ast.walk(node.value):
                    if isinstance(value, ast.Constant) and " " in str(value.value):
                        bodies.add(value.value)
    return bodies, sections


def test_every_template_the_engine_raises_is_in_the_catalogue():
    bodies, sections = _engine_templates()
    assert len(bodies) > 60  # the scan finds them
    assert bodies - set(RULE_MESSAGES) == set()
    with translation.override("en"):
        assert sections - {str(section) for section in RULE_SECTIONS} == set()
    with translation.override("de"):  # and each has a translation, its placeholders kept
        for template in RULE_MESSAGES:
            german = translation.gettext(template)
            assert german != template, template
            assert sorted(re.findall(r"%\(\w+\)s", german)) == sorted(
                re.findall(r"%\(\w+\)s", template)
            )


@pytest.fixture
def match(organiser_client, alice, bob):
    """Alice deals first (seat 0): Bob has the upcard option."""
    body = {
        "player1": alice.id,
        "player2": bob.id,
        "first_dealer": alice.id,
        "decks": [preset_deck(), preset_deck()],
    }
    response = organiser_client.post("/api/matches/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def _error(client, match_id, body, language):
    header = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = act(client, match_id, body, **header)
    assert response.status_code == 400, response.json()
    assert response["Content-Language"] == (language or "en")
    return response.json()["error"]


def test_a_rule_error_with_a_value_in_german_and_persian(match, bob_client):
    assert act(bob_client, match, {"type": "draw", "source": "discard"}).status_code == 201
    card = ANN[0]  # Alice's: not in Bob's hand
    body = {"type": "discard", "card": card}
    en, de, fa = (_error(bob_client, match, body, lang) for lang in ("", "de", "fa"))
    assert en["code"] == de["code"] == fa["code"] == "invalid_card"
    assert en["rule"] == de["rule"] == fa["rule"] == "5 a normal turn"  # references stay
    assert en["message"] == f"{card} is not in your hand"
    assert de["message"] == f"{card} ist nicht auf Ihrer Hand"
    assert fa["message"] == f"{card} در دست شما نیست"


def test_a_rule_error_with_its_rules_section_in_german_and_persian(match, bob_client):
    body = {"type": "discard", "card": "KD"}  # the upcard option: nothing drawn yet
    en, de, fa = (_error(bob_client, match, body, lang) for lang in ("", "de", "fa"))
    assert en["code"] == de["code"] == fa["code"] == "illegal_action"
    assert en["message"] == "draw a card first (rule 5, a normal turn)"
    assert de["message"] == "ziehen Sie zuerst eine Karte (Regel 5, ein normaler Zug)"
    assert fa["message"] == "اول یک کارت بردارید (قانون 5، نوبت معمولی)"


def test_a_services_error_naming_a_player_in_german_and_persian(match, alice_client):
    en, de, fa = (_error(alice_client, match, {"type": "pass"}, lang) for lang in ("", "de", "fa"))
    assert en["code"] == de["code"] == fa["code"] == "not_your_turn"
    assert en["message"] == "it is Bob's move"
    assert de["message"] == "Bob ist am Zug"
    assert fa["message"] == "نوبت Bob است"


def test_a_services_field_error_in_german_and_persian_keeps_its_code_and_reason(
    organiser_client,
):
    body = {"name": "Mars open", "format": "swiss", "rounds": 2, "time_zone": "Mars/Base"}
    answers = {
        lang: organiser_client.post(
            "/api/tournaments/", body, format="json", HTTP_ACCEPT_LANGUAGE=lang
        )
        for lang in ("en", "de", "fa")
    }
    errors = {lang: r.json()["error"] for lang, r in answers.items()}
    assert {r.status_code for r in answers.values()} == {400}
    assert {(e["code"], e["reason"]) for e in errors.values()} == {("validation_error", "unknown")}
    assert errors["en"]["message"] == "unknown time zone 'Mars/Base'"
    assert errors["de"]["message"] == "unbekannte Zeitzone 'Mars/Base'"
    assert errors["de"]["fields"] == {"time_zone": ["unbekannte Zeitzone 'Mars/Base'"]}
    assert (
        "Mars/Base" in errors["fa"]["message"]
        and errors["fa"]["message"] != errors["en"]["message"]
    )


def test_a_tournament_domain_error_with_a_value_in_german(organiser_client, organiser):
    t = started(organiser, players=4)
    url = f"/api/tournaments/{t.pk}/rounds/start/"
    de = organiser_client.post(url, {}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert de.status_code == 409, de.json()
    assert de.json()["error"] == {
        "code": "conflict",
        "reason": "round_in_play",
        "message": "Runde 1 läuft noch",
    }


# --- the tournament's own language --------------------------------------------------------


def _created(tournament_id: int) -> dict:
    t = Tournament.objects.get(pk=tournament_id)
    return next(
        e.data for e in eventstore.load(stream_id=t.stream_id) if e.type == "TournamentCreated"
    )


def test_a_tournaments_language_is_set_when_it_is_made_and_changed_by_patch(organiser_client):
    body = {"name": "Vilniaus vakaras", "format": "swiss", "rounds": 2, "language": "lt"}
    created = organiser_client.post("/api/tournaments/", body, format="json")
    assert created.status_code == 201, created.json()
    tid = created.json()["id"]
    assert created.json()["language"] == "lt" and _created(tid)["language"] == "lt"
    changed = organiser_client.patch(
        f"/api/tournaments/{tid}/", {"language": "fa", "reason": "a Persian club"}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["language"] == "fa"
    t = Tournament.objects.get(pk=tid)
    last = eventstore.load(stream_id=t.stream_id)[-1]
    assert last.type == "SettingsChanged"
    assert last.data["changes"] == {"language": {"old": "lt", "new": "fa"}}
    wall = organiser_client.get(f"/tournaments/{tid}/wall/", HTTP_ACCEPT_LANGUAGE="de")
    assert wall["Content-Language"] == "fa"  # the wall screen speaks the tournament's


def test_a_tournament_takes_its_clubs_language_unless_it_names_one(organiser_client, organiser):
    club = Club.objects.create(name="Clubul Bucureşti", slug="buc", language="ro")
    club.organisers.add(organiser)
    body = {"name": "Marți", "format": "swiss", "rounds": 2, "club": club.pk}
    default = organiser_client.post("/api/tournaments/", body, format="json")
    assert default.status_code == 201, default.json()
    assert default.json()["language"] == "ro" and _created(default.json()["id"])["language"] == "ro"
    own = organiser_client.post("/api/tournaments/", {**body, "language": "de"}, format="json")
    assert own.json()["language"] == "de"


def test_a_patch_of_the_language_refuses_an_unknown_one_and_writes_nothing(organiser_client):
    body = {"name": "Abend", "format": "swiss", "rounds": 2}
    tid = organiser_client.post("/api/tournaments/", body, format="json").json()["id"]
    before = len(eventstore.load(stream_id=Tournament.objects.get(pk=tid).stream_id))
    refused = organiser_client.patch(
        f"/api/tournaments/{tid}/", {"language": "xx"}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "validation_error"
    assert set(refused.json()["error"]["fields"]) == {"language"}
    after = len(eventstore.load(stream_id=Tournament.objects.get(pk=tid).stream_id))
    assert after == before


def test_the_desk_sets_the_tournaments_language(client):
    td = desk_organiser()
    t = started(td, players=2)
    client.force_login(td)
    page = client.get(f"/desk/{t.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'action="/desk/{t.pk}/language/"' in page and ">Lietuvių</option>" in page
    response = client.post(f"/desk/{t.pk}/language/", {"language": "lt"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.language == "lt"
    printed = client.get(f"/desk/{t.pk}/rounds/1/pairings/print/", HTTP_ACCEPT_LANGUAGE="en")
    assert printed["Content-Language"] == "lt"


# --- the play page's words ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "knock", "gin"),
    [
        ("en", "Knock", "Go gin"),
        ("ro", "Bate", "Fă gin"),
        ("de", "Klopfen", "Gin machen"),
        ("lt", "Belsti", "Skelbti džiną"),
        ("fa", "در بزن", "جین کن"),
    ],
)
def test_the_play_buttons_say_what_the_player_does(language, knock, gin):
    with translation.override(language):
        words = play_strings()
    assert (words["knock"], words["gin"]) == (knock, gin)


@pytest.mark.parametrize(
    ("language", "queen_of_hearts", "seven_of_spades"),
    [
        ("en", "Queen of hearts", "7 of spades"),
        ("ro", "Dama de cupă", "7 de pică"),
        ("de", "Herz-Dame", "Pik-7"),
        ("lt", "Širdžių dama", "Pikų 7"),
        ("fa", "بی‌بی دل", "7 پیک"),
    ],
)
def test_card_names_in_each_languages_order(language, queen_of_hearts, seven_of_spades):
    with translation.override(language):
        words = play_strings()
    name = lambda rank, suit: words[f"of_{suit}"] % {"rank": words[f"card_{rank}"]}  # noqa: E731
    assert (name("Q", "H"), name("7", "S")) == (queen_of_hearts, seven_of_spades)


# --- one word for knock -------------------------------------------------------------------

KNOCK_WORDS = {
    "lt": re.compile(r"\b[Bb]el(sti|dimas|dimo|dė|dęs|dusio|džiant|skite|site|d|s)"),
    "fa": re.compile(r"در ?(زدن|زد|بزن|می‌زن|زننده|بزنید)"),
}


@pytest.mark.parametrize("language", sorted(KNOCK_WORDS))
def test_knock_is_one_word_everywhere(language):
    import polib

    root = pathlib.Path(__file__).resolve().parents[2] / "locale" / language / "LC_MESSAGES"
    for domain in ("django", "djangojs"):
        for entry in polib.pofile(str(root / f"{domain}.po")):
            texts = [entry.msgstr, *entry.msgstr_plural.values()]
            if language == "lt":  # not the four words of the rules text, nor "pabelsti"
                assert not any(re.search(r"[Pp]abel|numuš|stuk", t) for t in texts), entry.msgid
            mentions = re.search(r"\bknock(?!out)", entry.msgid, re.IGNORECASE)
            if (
                entry.obsolete
                or not mentions
                or '"' in entry.msgid
                or "draw, discard or knock" in entry.msgid
            ):
                continue  # (an API field's name stays English)
            assert all(KNOCK_WORDS[language].search(t) for t in texts if t), (entry.msgid, texts)


@pytest.mark.parametrize(
    ("language", "hearts", "queen"),
    [
        ("de", "Herz-%(rank)s", "Dame"),
        ("lt", "Širdžių %(rank)s", "dama"),
        ("fa", "%(rank)s دل", "بی‌بی"),
    ],
)
def test_the_replays_card_names_come_from_the_catalogue(client, language, hearts, queen):
    """The replay's cards (web/static/replay/cards.js) name themselves from /jsi18n/."""
    catalogue = client.get(f"/jsi18n/?lang={language}", HTTP_ACCEPT_LANGUAGE=language)
    text = catalogue.content.decode()  # the catalogue is JSON inside the script (\\u escapes)
    assert all(word in text or json.dumps(word)[1:-1] in text for word in (hearts, queen))
