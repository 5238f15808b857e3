"""The catalogues are kept whole (README, "Languages"): every text of the code is in every
language's catalogue, translated, with no fuzzy entry, and the placeholders msgfmt checks
(python-format, the plural forms) agree."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES]
DOMAINS = ["django", "djangojs"]
# What makemessages reads: the code of the apps (tests, benches and tools are not shown).
SOURCES = ["config", "core", "demo", "eventstore", "games", "players", "tournaments", "web"]
MAKEMESSAGES_IGNORE = ["web/static/web/vendor/*", "*/migrations/*"]


def _catalogue(language: str, domain: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / language / "LC_MESSAGES" / f"{domain}.po"))


def _msgids(po: polib.POFile) -> set[tuple[str | None, str]]:
    return {(e.msgctxt, e.msgid) for e in po if not e.obsolete}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language, domain):
    po = _catalogue(language, domain)
    entries = [e for e in po if not e.obsolete]
    assert entries, f"{language}/{domain}.po is empty"
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    untranslated = [
        e.msgid
        for e in entries
        if (not all(e.msgstr_plural.values()) if e.msgid_plural else not e.msgstr)
    ]
    assert not fuzzy, f"fuzzy in {language}/{domain}.po: {fuzzy[:5]}"
    assert not untranslated, f"untranslated in {language}/{domain}.po: {untranslated[:5]}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_language_has_the_same_texts(domain):
    english = _msgids(_catalogue("en", domain))
    for language in LANGUAGES:
        assert _msgids(_catalogue(language, domain)) == english, language


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="apt-get install gettext")
@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_msgfmt_checks_the_placeholders_and_plurals(language, domain):
    path = LOCALE / language / "LC_MESSAGES" / f"{domain}.po"
    result = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="apt-get install gettext")
def test_makemessages_finds_no_text_missing_from_the_catalogues(tmp_path):
    """makemessages run on a copy of the code, into a fresh locale folder: every text it
    finds must already be in the catalogues (and nothing they hold be gone from the code)."""
    copy = tmp_path / "src"
    for name in SOURCES:
        shutil.copytree(
            ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    shutil.copy(ROOT / "manage.py", copy / "manage.py")
    (copy / "locale").mkdir()
    env = {"DJANGO_SETTINGS_MODULE": "config.settings.test", "PATH": _path()}
    for domain in DOMAINS:
        command = [sys.executable, "manage.py", "makemessages", "-l", "en", "-d", domain]
        for pattern in MAKEMESSAGES_IGNORE:
            command += ["--ignore", pattern]
        result = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        found = _msgids(polib.pofile(str(copy / "locale" / "en" / "LC_MESSAGES" / f"{domain}.po")))
        kept = _msgids(_catalogue("en", domain))
        assert not found - kept, f"not in the catalogues ({domain}): {sorted(found - kept)[:10]}"
        assert not kept - found, f"no longer in the code ({domain}): {sorted(kept - found)[:10]}"


def _path() -> str:
    import os

    return os.environ.get("PATH", "/usr/bin:/bin")
