"""The desk's link to a finished tournament's results exchange file (HGX 2; a bracket's
HGX 3)."""

from __future__ import annotations

import pytest

from tests.tournaments.exchange.bracket_helpers import bracket_text, random_bracket
from tests.tournaments.exchange.helpers import checker
from tests.tournaments.exchange.individual_helpers import individual_text, random_tournament
from tests.web.desk.helpers import started
from tournaments.exchange.individual_imports import tournament_exchange_import

pytestmark = pytest.mark.django_db


def test_a_finished_tournament_links_its_exchange_file(client, td) -> None:
    done = tournament_exchange_import(
        text=individual_text(random_tournament(3, players=6, fmt="swiss", rounds=3)), by=td
    )
    page = client.get(f"/desk/{done.pk}/").content.decode()
    assert 'id="exchange-file"' in page
    response = client.get(f"/desk/{done.pk}/exchange.hgx")
    assert response.status_code == 200
    assert checker.check(response.content.decode()) == []
    playing = started(td, players=4)
    assert 'id="exchange-file"' not in client.get(f"/desk/{playing.pk}/").content.decode()
    assert client.get(f"/desk/{playing.pk}/exchange.hgx").status_code == 409


def test_a_finished_bracket_links_its_exchange_file(client, td) -> None:
    text = bracket_text(random_bracket(5, players=7, kind="knockout"))
    done = tournament_exchange_import(text=text, by=td)
    assert 'id="exchange-file"' in client.get(f"/desk/{done.pk}/").content.decode()
    response = client.get(f"/desk/{done.pk}/exchange.hgx")
    assert response.status_code == 200
    assert response.content.decode() == text
