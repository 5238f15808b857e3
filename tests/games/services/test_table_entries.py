"""Players enter their table's hands on their phones: one enters, the other confirms (the
hand is recorded with who entered and who confirmed in its event) or disputes (an
organiser accepts or rejects); rules are checked at entry; one open entry a table."""

import pytest

import eventstore
from core.errors import ConflictError, PermissionDeniedError
from games.engine.errors import RuleError
from games.hand_entries import HandEntry
from games.models import Match, TableEntry
from games.services import match_create, match_record_hand
from games.services.table_entries import (
    table_entry_confirm,
    table_entry_decide,
    table_entry_dispute,
    table_entry_submit,
    table_entry_withdraw,
)
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, organiser):
    return match_create(player1=alice, player2=bob, mode="table", organisers=[organiser])


def _last_event(match):
    events = eventstore.load(stream_id=match.stream_id)
    return events[-1]


def test_entered_by_one_confirmed_by_the_other(table, alice, bob):
    entry = table_entry_submit(
        match_id=table.id,
        player=alice,
        hand=HandEntry(knocker=alice.pk, knocker_deadwood=4, defender_deadwood=20),
    )
    assert entry.status == "pending" and not Match.objects.get(pk=table.pk).hands.exists()
    with pytest.raises(PermissionDeniedError):
        table_entry_confirm(entry_id=entry.pk, player=alice)  # not your own
    entry = table_entry_confirm(entry_id=entry.pk, player=bob)
    assert entry.status == "confirmed"
    match = Match.objects.get(pk=table.pk)
    assert match.hands.get().points == 16
    meta = _last_event(match).metadata
    assert meta["entered_by"] == f"player:{alice.pk}"
    assert meta["confirmed_by"] == f"player:{bob.pk}"


def test_rules_are_checked_at_entry(table, alice):
    with pytest.raises(RuleError):
        table_entry_submit(
            match_id=table.id,
            player=alice,
            hand=HandEntry(knocker=alice.pk, knocker_deadwood=11, defender_deadwood=30),
        )
    with pytest.raises(RuleError):
        table_entry_submit(
            match_id=table.id,
            player=alice,
            hand=HandEntry(knocker=alice.pk, gin=True, knocker_deadwood=3, defender_deadwood=30),
        )
    assert not TableEntry.objects.exists()


def test_only_the_players_enter_and_one_entry_at_a_time(table, alice, bob):
    with pytest.raises(PermissionDeniedError):
        table_entry_submit(match_id=table.id, player=PlayerFactory(), hand=HandEntry(drawn=True))
    table_entry_submit(match_id=table.id, player=alice, hand=HandEntry(drawn=True))
    with pytest.raises(ConflictError):
        table_entry_submit(match_id=table.id, player=bob, hand=HandEntry(drawn=True))


def test_disputed_then_settled_by_an_organiser(table, alice, bob, organiser):
    entry = table_entry_submit(
        match_id=table.id,
        player=bob,
        hand=HandEntry(knocker=bob.pk, knocker_deadwood=2, defender_deadwood=9),
    )
    entry = table_entry_dispute(entry_id=entry.pk, player=alice, note="I had 7, not 9")
    assert entry.status == "disputed"
    with pytest.raises(PermissionDeniedError):
        table_entry_decide(entry_id=entry.pk, by=alice.user, accept=True)
    entry = table_entry_decide(entry_id=entry.pk, by=organiser, accept=True, note="checked")
    assert entry.status == "accepted" and entry.decided_by == organiser
    match = Match.objects.get(pk=table.pk)
    meta = _last_event(match).metadata
    assert meta["entered_by"] == f"player:{bob.pk}"
    assert meta["confirmed_by"] == f"user:{organiser.pk}"
    second = table_entry_submit(match_id=table.id, player=alice, hand=HandEntry(drawn=True))
    table_entry_dispute(entry_id=second.pk, player=bob, note="no")
    assert table_entry_decide(entry_id=second.pk, by=organiser, accept=False).status == "rejected"
    assert match.hands.count() == 1


def test_an_entry_overtaken_by_the_desk_is_stale(table, alice, bob, organiser):
    entry = table_entry_submit(match_id=table.id, player=alice, hand=HandEntry(drawn=True))
    match_record_hand(
        match_id=table.id, by=organiser, hand=HandEntry(drawn=True)
    )  # the desk entered it
    entry = table_entry_confirm(entry_id=entry.pk, player=bob)
    assert entry.status == "stale"
    assert Match.objects.get(pk=table.pk).hands.count() == 1


def test_withdraw_own_entry_only(table, alice, bob):
    entry = table_entry_submit(match_id=table.id, player=alice, hand=HandEntry(drawn=True))
    with pytest.raises(PermissionDeniedError):
        table_entry_withdraw(entry_id=entry.pk, player=bob)
    assert table_entry_withdraw(entry_id=entry.pk, player=alice).status == "withdrawn"
    with pytest.raises(ConflictError):
        table_entry_confirm(entry_id=entry.pk, player=bob)
