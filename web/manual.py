"""The manual at /docs/ and the players' help at /help/.

The manual is docs/ built by MkDocs (`make install` runs `mkdocs build --strict` into
site/, which git does not keep; the Docker image builds it too): served here as files, so a
club without internet has it, and nothing in it comes from outside (mkdocs.yml). The
players' help is a page of the app, in the five languages the pages speak.

Each screen's "Help" link goes to its part of either (`HELP`, by the screen's URL name)."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from django.conf import settings
from django.core.exceptions import SuspiciousFileOperation
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils._os import safe_join

# Where `make install` builds the manual (mkdocs.yml's site_dir).
DEFAULT_DOCS_ROOT = Path(__file__).resolve().parent.parent / "site"
DOCS = "/docs/"
PLAYERS_HELP = "/help/"

# A screen's help, by its URL name: the players' help page (translated) for the players'
# screens, the manual's page for the desk's. A screen not named here gets its app's default.
HELP = {
    "my-evening": PLAYERS_HELP + "#evening",
    "play-lobby": PLAYERS_HELP + "#online",
    "play": PLAYERS_HELP + "#online",
    "table-entry": PLAYERS_HELP + "#table",
    "table-short": PLAYERS_HELP + "#table",
    "desk-login": PLAYERS_HELP + "#sign-in",
    "desk-home": DOCS + "organisers/",
    "desk-tournament-new": DOCS + "organisers/tournaments/",
    "desk-tournament": DOCS + "organisers/desk/#before",
    "desk-check-in": DOCS + "organisers/desk/#before",
    "desk-member-new": DOCS + "organisers/desk/#before",
    "desk-login-code": DOCS + "organisers/desk/#phone-login-codes",
    "desk-round": DOCS + "organisers/desk/#during-a-round",
    "desk-round-by-hand": DOCS + "organisers/formats/",
    "desk-table": DOCS + "organisers/corrections/",
    "desk-hand": DOCS + "organisers/corrections/#a-hand-entered-wrongly-at-a-table",
    "desk-sheet": DOCS + "organisers/corrections/#a-whole-match-typed-from-the-paper-scoresheet",
    "desk-match": DOCS + "organisers/corrections/",
    "desk-disputes": DOCS + "organisers/disputes/",
    "desk-dispute": DOCS + "organisers/disputes/#answering-one-at-the-desk",
    "desk-forbidden-pairs": DOCS + "organisers/desk/#players-kept-apart",
    "desk-bracket": DOCS + "organisers/prints/",
    "desk-club-seasons": DOCS + "organisers/seasons/",
    "desk-season": DOCS + "organisers/seasons/",
}
HELP_DEFAULT = {"desk": DOCS + "organisers/desk/", "players": PLAYERS_HELP}


def help_url(url_name: str | None, default: str = "desk") -> str:
    return HELP.get(url_name or "", HELP_DEFAULT[default])


def docs_root() -> Path:
    return Path(getattr(settings, "DOCS_ROOT", DEFAULT_DOCS_ROOT))


def manual(request: HttpRequest, path: str = "") -> HttpResponse:
    """A file of the built manual; a folder answers its index.html (MkDocs' pretty URLs)."""
    root = docs_root()
    if not (root / "index.html").is_file():
        return HttpResponse(
            "The manual is not built here: run `make install` (it runs `mkdocs build`).\n",
            status=404,
            content_type="text/plain; charset=utf-8",
        )
    try:
        target = Path(safe_join(root, path))
    except SuspiciousFileOperation as error:  # a path outside the manual
        raise Http404("No such page in the manual.") from error
    if target.is_dir():
        if path and not path.endswith("/"):
            return HttpResponseRedirect(f"{DOCS}{path}/")
        target = target / "index.html"
    if not target.is_file():
        raise Http404("No such page in the manual.")
    # Read whole (the largest file, the search index, is a few hundred kB): a streamed file
    # would be iterated synchronously under ASGI, which Django warns about on every file.
    content_type, encoding = mimetypes.guess_type(target.name)
    response = HttpResponse(target.read_bytes(), content_type=content_type or "text/plain")
    if encoding:
        response["Content-Encoding"] = encoding
    response["Cache-Control"] = "public, max-age=300"
    return response


def players_help(request: HttpRequest) -> HttpResponse:
    """The players' help, in the page's language (the switcher, the browser, else English)."""
    return render(request, "help/players.html", {"manual": DOCS})
