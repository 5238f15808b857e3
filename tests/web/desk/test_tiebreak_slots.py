"""Issue 37, item 5: the desk's new-tournament form asked for the tiebreak order as text
whose help listed the code names ("match_wins, games_won, …") in every language. Now it
has a list a slot, in the desk's words; empty slots keep the format's order."""

from __future__ import annotations

import re

import pytest

from tests.web.desk.test_setup import _create_form
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _visible_text(page: str) -> str:
    return re.sub(r"<[^>]+>", " ", page)  # attributes (an option's value) are not read


@pytest.mark.parametrize(("language", "words"), [("fa", "بوخهولتس"), ("de", "Buchholz")])
def test_the_tiebreaks_are_offered_in_words_not_codes(client, td, language, words) -> None:
    page = client.get("/desk/new/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'name="tiebreak_1"' in page and 'name="tiebreak_4"' in page
    text = _visible_text(page)
    for code in ("match_wins", "games_won", "points_diff", "sonneborn_berger"):
        assert code not in text, code
    assert words in text


def test_the_order_chosen_is_the_tournaments_and_a_repeat_is_refused(client, td) -> None:
    form = _create_form(tiebreak_1="buchholz", tiebreak_2="match_wins", tiebreak_3="")
    response = client.post("/desk/new/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get(name="Club night").tiebreaks == ["buchholz", "match_wins"]
    twice = client.post("/desk/new/", _create_form(name="Twice", tiebreak_1="buchholz",
                                                    tiebreak_2="buchholz"))  # fmt: skip
    assert twice.status_code == 400 and not Tournament.objects.filter(name="Twice").exists()
