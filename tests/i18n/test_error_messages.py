"""Every message a person reads from an error is a catalogued text (README, "Languages"):
no message is built by formatting English, every one raised is translated in each
catalogue, and the API shows it in the request's language with the code it has in English.
The names of settings in those messages are the desk's labels, translated too."""

from __future__ import annotations

import ast
import pathlib
import re
import uuid

import polib
import pytest
from django.utils import translation

from tests.tournaments.helpers import make_bots, make_tournament
from tests.web.desk.helpers import started
from tournaments import services

pytestmark = pytest.mark.django_db

ROOT = pathlib.Path(__file__).resolve().parents[2]
APPS = ("games", "tournaments", "players", "web", "core", "eventstore", "config")
LANGUAGES = ("ro", "de", "lt", "fa")
# Programming errors (never shown to a person), and the command line's errors, which stay
# English (README, "Languages": the management commands speak English).
NOT_FOR_PEOPLE = {
    "ValueError", "TypeError", "AttributeError", "AssertionError", "KeyError", "RuntimeError",
    "NotImplementedError", "LookupError", "ImproperlyConfigured", "CommandError",
    # manage.py backup and restore's (eventstore.backups): the command line's too.
    "BackupError",
    # The hand pairings' refusals: the domain answers them with its own catalogued message
    # (the problem's code kept in the error body).
    "HandPairingError",
    # A results exchange file's line-level problems (tournaments.exchange.hgx), as the
    # stand-alone checker names them: shown inside a catalogued message, as data.
    "ExchangeFormatError",
}  # fmt: skip
# These carry a code (the desk's row errors: the field's name) first, the message second.
MESSAGE_SECOND = {"RowError", "BracketResultError"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]")


def _sites() -> list[tuple[str, int, str, ast.expr]]:
    """(file, line, what, the message's expression) of every error raised, form error added
    and admin message sent in the apps (the engine apart: tests/i18n/test_messages.py)."""
    found = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if "migrations" in rel.parts or rel.parts[:2] == ("games", "engine"):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                call, args = None, []
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                    call = node.exc
                    func = call.func
                    name = getattr(func, "id", None) or getattr(func, "attr", "")
                    # (Django's PermissionDenied and Http404: their pages show no message.)
                    if not name.endswith("Error") or name in NOT_FOR_PEOPLE:
                        continue
                    args = call.args[1:] if name in MESSAGE_SECOND else call.args
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    owner = node.func.value
                    if node.func.attr == "add_error":
                        name, args = "add_error", node.args[1:]
                    elif (
                        isinstance(owner, ast.Name)
                        and owner.id == "messages"
                        and node.func.attr in ("error", "warning", "info", "success")
                    ):
                        name, args = "messages", node.args[1:]
                    else:
                        continue
                else:
                    continue
                if args:
                    found.append((str(rel), node.lineno, name, args[0]))
    return found


def _built_from_english(expr: ast.expr) -> bool:
    """An f-string, a concatenation or a .format() of literal English (a catalogued
    template filled with `%` is fine: its text is looked up first), or another error's
    English text passed on (`exc.message`, `str(exc)`: `translated_message(exc)` is its
    text in the reader's language)."""
    if isinstance(expr, ast.JoinedStr):
        return True
    if isinstance(expr, ast.Attribute) and expr.attr == "message":
        return True
    if (
        isinstance(expr, ast.Call)
        and getattr(expr.func, "id", "") == "str"
        and len(expr.args) == 1
        and isinstance(expr.args[0], ast.Name)
        and expr.args[0].id in ("exc", "error", "err", "e")
    ):
        return True
    if isinstance(expr, ast.BinOp):
        if isinstance(expr.op, ast.Add):
            return True
        return isinstance(expr.left, ast.Constant | ast.JoinedStr)  # "..." % values
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "format"
        and isinstance(expr.func.value, ast.Constant)
    )


def test_no_message_a_person_reads_is_built_from_english():
    sites = _sites()
    assert len(sites) > 200  # the scan finds them
    built = [f"{f}:{line} ({what})" for f, line, what, expr in sites if _built_from_english(expr)]
    assert built == []


def _literal(expr: ast.expr) -> str | None:
    """The English text of a message: a literal, or one marked for the catalogue
    (gettext_noop, gettext, _) alone or filled with `%`."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mod):
        expr = expr.left
    if isinstance(expr, ast.Call) and getattr(expr.func, "id", "") in (
        "gettext_noop",
        "gettext",
        "gettext_lazy",
        "_",
    ):
        expr = expr.args[0] if expr.args else expr
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    return None


@pytest.fixture(scope="module")
def catalogues() -> dict[str, dict[str, str]]:
    out = {}
    for language in LANGUAGES:
        po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
        out[language] = {e.msgid: e.msgstr for e in po if e.msgstr and not e.obsolete}
    return out


def test_every_message_raised_is_translated_in_every_catalogue(catalogues):
    texts = {}
    for path, line, _what, expr in _sites():
        text = _literal(expr)
        if text and " " in text:  # a message, not a field's name
            texts.setdefault(text, f"{path}:{line}")
    assert len(texts) > 150
    for language, catalogue in catalogues.items():
        missing = {t: where for t, where in texts.items() if t not in catalogue}
        assert missing == {}, language
        changed = {
            t: catalogue[t]
            for t in texts
            if sorted(PLACEHOLDER.findall(catalogue[t])) != sorted(PLACEHOLDER.findall(t))
        }
        assert changed == {}, language


# --- at the API: the request's language, the same code ---------------------------------------


def _in(client, method: str, url: str, body: dict | None = None, **headers) -> dict:
    """The error of the same request in English, German and Persian (each: status, body)."""
    answers = {}
    for language in ("en", "de", "fa"):
        call = getattr(client, method)
        response = call(url, body, format="json", HTTP_ACCEPT_LANGUAGE=language, **headers)
        assert response.status_code >= 400, response.content
        assert response["Content-Language"] == language
        answers[language] = (response.status_code, response.json()["error"])
    statuses = {status for status, _ in answers.values()}
    codes = {(e["code"], e.get("reason")) for _, e in answers.values()}
    assert len(statuses) == 1 and len(codes) == 1, answers  # the contract does not change
    english, german, persian = (answers[lang][1]["message"] for lang in ("en", "de", "fa"))
    assert german != english and persian != english and persian != german, answers
    return {lang: error for lang, (_, error) in answers.items()}


@pytest.fixture
def tournament(organiser):
    return make_tournament(organiser, make_bots(2), rounds=1, check_in=False)


def test_a_webhook_url_refused_in_german_and_persian(organiser_client, tournament):
    url = f"/api/tournaments/{tournament.pk}/webhooks/"
    errors = _in(organiser_client, "post", url, {"url": "ftp://example.com/in"})
    assert errors["en"]["code"] == "validation_error"
    assert errors["en"]["reason"] == "webhook_url_refused"
    assert errors["en"]["message"] == "only http and https URLs are allowed"
    assert errors["de"]["message"] == "nur http- und https-URLs sind erlaubt"
    assert errors["fa"]["message"] == "فقط نشانی‌های http و https مجازند"


def test_a_webhook_message_with_values_in_german(organiser_client, tournament, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    url = f"/api/tournaments/{tournament.pk}/webhooks/"
    errors = _in(organiser_client, "post", url, {"url": "http://10.1.2.3/in"})
    assert errors["en"]["message"] == (
        "the host '10.1.2.3' resolves to an address webhooks may not reach (10.1.2.3): private,"
        " loopback, link-local and reserved addresses are refused"
    )
    assert errors["de"]["message"].startswith(
        "der Host '10.1.2.3' führt zu einer Adresse, die Webhooks nicht erreichen dürfen (10.1.2.3)"
    )


def test_a_clubs_time_zone_refused_in_german(organiser_client):
    errors = _in(organiser_client, "post", "/api/clubs/", {"name": "Mars", "time_zone": "Mars/X"})
    assert errors["en"]["message"] == "unknown time zone 'Mars/X'"
    assert errors["de"]["message"] == "unbekannte Zeitzone 'Mars/X'"


def test_an_unknown_match_in_german(organiser_client):
    errors = _in(organiser_client, "get", f"/api/matches/{uuid.uuid4()}/")
    assert (errors["en"]["code"], errors["en"]["reason"]) == ("not_found", "match_not_found")
    assert errors["de"]["message"] == "diese Partie gibt es nicht"


def test_a_rulesets_unknown_option_in_german(organiser_client, alice, bob):
    body = {"player1": alice.id, "player2": bob.id, "ruleset": {"jokers": 2}}
    errors = _in(organiser_client, "post", "/api/matches/", body)
    assert errors["en"]["code"] == "validation_error"
    assert "unknown option(s): jokers" in str(errors["en"]["fields"])
    assert "unbekannte Option(en): jokers" in str(errors["de"]["fields"])


def test_a_too_long_idempotency_key_in_german(organiser_client, alice, bob):
    body = {"player1": alice.id, "player2": bob.id}
    errors = _in(organiser_client, "post", "/api/matches/", body, HTTP_IDEMPOTENCY_KEY="k" * 256)
    assert errors["de"]["message"] == "Idempotency-Key darf höchstens 255 Zeichen lang sein."


# --- a setting by its label ------------------------------------------------------------------


def test_a_setting_that_may_no_longer_change_is_named_by_its_label(organiser, organiser_client):
    t = started(organiser, players=4)
    body = {"play_mode": "online", "reason": "the tables are gone"}
    errors = _in(organiser_client, "patch", f"/api/tournaments/{t.pk}/", body)
    assert (errors["en"]["code"], errors["en"]["reason"]) == ("conflict", "setting_fixed")
    assert errors["en"]["message"] == (
        'the setting "Play mode" cannot change once the tournament has started'
    )
    assert errors["de"]["message"] == (
        "die Einstellung „Spielmodus“ kann nach Turnierbeginn nicht mehr geändert werden"
    )
    with translation.override("fa"):
        label = translation.gettext("Play mode")
    assert label != "Play mode" and f"«{label}»" in errors["fa"]["message"]
    assert "play_mode" not in errors["fa"]["message"]


def test_every_setting_has_a_translated_label(catalogues):
    from tournaments.domain import SETTINGS_FIXED_AFTER_START, SETTINGS_MUTABLE
    from tournaments.setting_labels import SETTING_LABELS

    assert set(SETTING_LABELS) == {*SETTINGS_MUTABLE, *SETTINGS_FIXED_AFTER_START}
    with translation.override("en"):
        labels = [str(label) for label in SETTING_LABELS.values()]
    for language, catalogue in catalogues.items():
        assert [label for label in labels if label not in catalogue] == [], language


def test_the_admins_message_names_the_setting_by_its_label(organiser):
    """The same error at the admin's and the desk's door: the service's, in the words of the
    reader (a rule error's template, not the English message)."""
    from core.errors import translated_message

    t = started(organiser, players=4)
    with pytest.raises(Exception) as caught:
        services.tournament_settings_change(
            tournament_id=t.pk, by=organiser, changes={"format": "round_robin"}
        )
    with translation.override("ro"):
        text = translated_message(caught.value)
    assert text == "setarea „Format” nu se mai poate schimba după începerea turneului"


def test_a_refused_fields_message_is_the_errors_own_in_the_readers_words(organiser_client):
    first = organiser_client.post("/api/clubs/", {"name": "Gin Club"}, format="json")
    assert first.status_code == 201, first.json()
    errors = _in(organiser_client, "post", "/api/clubs/", {"name": "Gin Club"})
    assert errors["en"]["fields"] == {"name": ["a club of that name already exists"]}
    assert errors["de"]["fields"] == {"name": ["ein Verein dieses Namens existiert schon"]}
    assert errors["fa"]["fields"]["name"] == [errors["fa"]["message"]]


def test_the_cause_a_message_names_is_in_the_readers_words_too():
    from core.errors import ConflictError, translated_message
    from tournaments.pairing import BracketResultError

    cause = BracketResultError(
        "not_a_player",
        "player %(player)s did not play the bracket's match %(match)s",
        player=7,
        match="W1-2",
    )
    error = ConflictError(
        "the bracket cannot take the results recorded: %(problem)s", params={"problem": cause}
    )
    assert error.message == (
        "the bracket cannot take the results recorded: player 7 did not play the bracket's"
        " match W1-2"
    )
    with translation.override("de"):
        assert translated_message(error) == (
            "der Turnierbaum kann die erfassten Ergebnisse nicht aufnehmen: Spieler 7 hat die"
            " Partie W1-2 des Turnierbaums nicht gespielt"
        )
