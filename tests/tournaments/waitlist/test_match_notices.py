"""The notices a tournament's matches call for (issue 40): a hand entered at the table waits
for the opponent's confirmation (one notice, to the opponent only), and a dispute ruled (a
disputed entry settled, a dispute case resolved: both players told), each e-mailed once in
the player's language; a Persian notice in Persian digits, with the names set apart."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from core.models import OutboxMessage
from games.hand_entries import HandEntry
from games.services.disputes import match_dispute_open, match_dispute_resolve
from games.services.table_entries import (
    table_entry_decide,
    table_entry_dispute,
    table_entry_submit,
)
from players.models import Player
from tests.tournaments.helpers import players_with_logins, table_tournament
from tournaments.models import Pairing
from tournaments.notices.models import Notice
from tournaments.notices.tasks import match_notices_send_task

pytestmark = pytest.mark.django_db


def _players(languages: tuple[str, ...] = ("en", "fa")) -> list[Player]:
    return players_with_logins(languages, name="Nadia")


def _seated(organiser: Any, jobs: Any) -> tuple[Any, Player, Player]:
    """A table tournament of two with round 1 paired: (its match id, the English player,
    the Persian one)."""
    en, fa = _players()
    with jobs():
        tournament = table_tournament(organiser, [en, fa])
    pairing = Pairing.objects.get(round__tournament=tournament)
    return pairing.match_id, en, fa


def test_an_entry_awaiting_confirmation_tells_the_opponent_once(organiser: Any, jobs: Any) -> None:
    match_id, en, fa = _seated(organiser, jobs)
    mail.outbox.clear()
    with jobs():
        entry = table_entry_submit(
            match_id=match_id,
            player=en,
            hand=HandEntry(knocker=en.pk, knocker_deadwood=4, defender_deadwood=23),
        )
    (notice,) = Notice.objects.filter(kind="confirm")
    assert notice.player == fa and notice.data["entry"] == entry.pk
    (message,) = mail.outbox
    assert message.to == ["fa@example.org"]
    # Persian digits, the English name set apart (FSI ... PDI), the table's page to answer on.
    assert "۴" in message.body and "۲۳" in message.body, message.body
    assert "\u2068Nadia en\u2069" in message.body, message.body
    assert f"/tables/{match_id}/" in message.body
    assert not any(ch in "0123456789" for ch in message.subject), message.subject

    # The same job again (a redelivery): nothing more.
    (job,) = OutboxMessage.objects.filter(task="tournaments.notices_match")
    assert match_notices_send_task.apply(tuple(job.args)).get() == 0
    assert len(mail.outbox) == 1 and Notice.objects.filter(kind="confirm").count() == 1


def test_a_disputed_entry_ruled_tells_both_players(organiser: Any, jobs: Any) -> None:
    match_id, en, fa = _seated(organiser, jobs)
    with jobs():
        entry = table_entry_submit(
            match_id=match_id,
            player=fa,
            hand=HandEntry(knocker=fa.pk, gin=True, knocker_deadwood=0, defender_deadwood=30),
        )
        table_entry_dispute(entry_id=entry.pk, player=en, note="it was a knock")
    mail.outbox.clear()
    with jobs():
        table_entry_decide(entry_id=entry.pk, by=organiser, accept=False, note="a knock")
    ruled = Notice.objects.filter(kind="ruled")
    assert sorted(n.player_id for n in ruled) == sorted([en.pk, fa.pk])
    assert {n.data["outcome"] for n in ruled} == {"rejected"}
    english = next(m for m in mail.outbox if m.to == ["en@example.org"])
    assert "rejected it" in english.body and "Nadia fa gin" in english.body, english.body
    assert sorted(m.to[0] for m in mail.outbox) == ["en@example.org", "fa@example.org"]


def test_a_dispute_case_resolved_tells_both_players(organiser: Any, jobs: Any) -> None:
    match_id, en, fa = _seated(organiser, jobs)
    with jobs():
        match_dispute_open(match_id=match_id, player=en, statement="the clock was wrong")
    mail.outbox.clear()
    with jobs():
        match_dispute_resolve(
            match_id=match_id, by=organiser, dispute=1, outcome="dismissed", reason="it was right"
        )
    assert Notice.objects.filter(kind="ruled").count() == 2
    english = next(m for m in mail.outbox if m.to == ["en@example.org"])
    assert "dispute 1 on your match was dismissed" in english.body, english.body
    assert f"/matches/{match_id}/" in english.body


def test_a_friendly_match_tells_no_one(organiser: Any, jobs: Any) -> None:
    from games.services import match_create

    en, fa = _players()
    match = match_create(player1=en, player2=fa, created_by=organiser, mode="table")
    with jobs():
        table_entry_submit(
            match_id=match.pk,
            player=en,
            hand=HandEntry(knocker=en.pk, knocker_deadwood=4, defender_deadwood=23),
        )
    assert not Notice.objects.exists()
    assert not OutboxMessage.objects.filter(task="tournaments.notices_match").exists()


def test_an_entry_rolled_back_announces_nothing(organiser: Any, jobs: Any) -> None:
    """The signal comes after the commit: an entry whose transaction rolls back tells no one."""
    from django.db import transaction

    from games.signals import table_entry_changed

    match_id, en, _ = _seated(organiser, jobs)
    heard: list[dict[str, Any]] = []

    def listen(**kwargs: Any) -> None:
        heard.append(kwargs)

    table_entry_changed.connect(listen)
    try:
        with jobs():
            with pytest.raises(RuntimeError), transaction.atomic():
                table_entry_submit.in_tx(
                    match_id=match_id,
                    player=en,
                    hand=HandEntry(knocker=en.pk, knocker_deadwood=4, defender_deadwood=23),
                )
                raise RuntimeError("rolled back")
            assert heard == []
            table_entry_submit(
                match_id=match_id,
                player=en,
                hand=HandEntry(knocker=en.pk, knocker_deadwood=4, defender_deadwood=23),
            )
    finally:
        table_entry_changed.disconnect(listen)
    assert [h["status"] for h in heard] == ["pending"] and heard[0]["before"] == ""
    assert Notice.objects.filter(kind="confirm").count() == 1


def test_a_right_to_left_name_is_set_apart_in_a_latin_notice(organiser: Any, jobs: Any) -> None:
    en, fa = players_with_logins(("en", "fa"), name="ژاله")
    with jobs():
        tournament = table_tournament(organiser, [en, fa])
    match_id = Pairing.objects.get(round__tournament=tournament).match_id
    mail.outbox.clear()
    with jobs():
        table_entry_submit(
            match_id=match_id,
            player=fa,
            hand=HandEntry(knocker=fa.pk, knocker_deadwood=4, defender_deadwood=23),
        )
    (message,) = mail.outbox
    assert message.to == ["en@example.org"]
    assert "\u2068ژاله fa\u2069 entered a hand" in message.body, message.body
    assert "4 against 23" in message.body  # Latin digits for the English reader
