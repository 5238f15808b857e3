"""Right to left: a pair of scores reads the first player's score first in the page's
reading direction wherever it stands (one isolated unit written in the page's direction),
and a rating beside a name, inside the name's <bdi>, has the page's digits."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from players.models import Player
from tests.tournaments.helpers import record_gins, table_tournament
from tests.web.desk.helpers import organiser
from tournaments.models import Pairing
from web.localize import persian_digits_html

PAIR = re.compile(r'<span class="score" dir="(rtl|ltr)">([^<]+)–([^<]+)</span>')


def _render(source: str, language: str, **context) -> str:
    with translation.override(language):
        html = Template(source).render(Context(context))
        return persian_digits_html(html) if language == "fa" else html


def test_a_pair_is_one_unit_in_the_pages_direction():
    source = "{% load scores %}Bob · {% score 2 1 %}"
    assert _render(source, "en") == 'Bob · <span class="score" dir="ltr">2–1</span>'
    assert _render(source, "de") == 'Bob · <span class="score" dir="ltr">2–1</span>'
    # After a Latin word the digits would read left to right (bidi rule W7), the second
    # player's first: isolated and right to left, the first player's score is on the right.
    assert _render(source, "fa") == 'Bob · <span class="score" dir="rtl">۲–۱</span>'


def test_a_pair_in_a_sentence_keeps_its_unit():
    source = (
        "{% load scores i18n %}{% score 110 0 as before %}{% score 120 0 as after %}"
        "{% blocktranslate %}Only the points changed, from {{ before }} to {{ after }}; the "
        "winner and the games stand. The points-difference tiebreak moves, which may still "
        "change the pairings.{% endblocktranslate %}"
    )
    persian = _render(source, "fa")
    assert PAIR.findall(persian) == [("rtl", "۱۱۰", "۰"), ("rtl", "۱۲۰", "۰")]
    assert persian.startswith("فقط امتیازها تغییر کرد")
    german = _render(source, "de")
    assert PAIR.findall(german) == [("ltr", "110", "0"), ("ltr", "120", "0")]


@pytest.mark.django_db
def test_the_desks_round_and_the_wall_screen_write_their_scores_as_units(
    client, django_capture_on_commit_callbacks
):
    td = organiser()
    players = [Player.objects.create(name=n) for n in ("Ann", "Ben", "Cy", "Di")]
    tournament = table_tournament(td, players, language="fa")
    for pairing in Pairing.objects.filter(round__tournament=tournament, round__number=1):
        with django_capture_on_commit_callbacks(execute=True):  # the results
            record_gins(pairing.match_id, td, pairing.player1)
    client.force_login(td)
    url = reverse("desk-round", args=[tournament.pk, 1])
    persian = client.get(url, HTTP_ACCEPT_LANGUAGE="fa").content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert PAIR.findall(persian) == [("rtl", "۲", "۰")] * 2  # each table's games, player 1 first
    assert PAIR.findall(english) == [("ltr", "2", "0")] * 2
    wall = client.get(f"/tournaments/{tournament.pk}/").content.decode()  # its language: fa
    assert ("rtl", "۲", "۰") in PAIR.findall(wall) and ("ltr", "2", "0") not in PAIR.findall(wall)


def test_a_rating_inside_a_names_bdi_has_the_pages_digits():
    ratings = {7: SimpleNamespace(rating=1512.4, before=False, provisional=True)}
    player = SimpleNamespace(pk=7, name="Zahra")
    source = "{% load ratings %}<td><bdi>{{ player|with_rating:ratings }}</bdi></td>"
    persian = _render(source, "fa", player=player, ratings=ratings)
    assert re.fullmatch(
        r'<td><bdi>Zahra <span class="rating" title="[^"]+">۱۵۱۲\?</span></bdi></td>', persian
    ), persian
    english = _render(source, "en", player=player, ratings=ratings)
    assert ">1512?</span></bdi>" in english
