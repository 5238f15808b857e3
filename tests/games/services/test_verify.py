import pytest
from django.db import connection

import eventstore
from games.selectors import match_verify
from games.services import match_act, match_create
from tests.games.services.helpers import knock_deck

pytestmark = pytest.mark.django_db


def test_an_altered_event_breaks_the_chain_at_its_version(alice, bob):
    match = match_create(player1=alice, player2=bob, first_dealer=alice, decks=[knock_deck()])
    match_act(match_id=match.id, player=bob, action={"type": "pass"})
    assert match_verify(match=match) == {"ok": True, "events": 3}
    dealt = eventstore.load(stream_id=match.stream_id)[1]
    data = {**dealt.data, "deck": list(reversed(dealt.data["deck"]))}
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE eventstore_event SET data = %s WHERE position = %s",
            [eventstore.canonical_json(data), dealt.position],
        )
    result = match_verify(match=match)
    assert result["ok"] is False and result["first_broken_version"] == 2


def test_deleting_the_last_events_is_caught_by_the_matchs_version(alice, bob):
    # The chain of what is left is intact; the match's record still says version 3.
    match = match_create(player1=alice, player2=bob, first_dealer=alice, decks=[knock_deck()])
    match_act(match_id=match.id, player=bob, action={"type": "pass"})
    last = eventstore.load(stream_id=match.stream_id)[-1]
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM eventstore_event WHERE position = %s", [last.position])
    assert eventstore.verify(stream_id=match.stream_id).ok
    result = match_verify(match=match)
    assert result["ok"] is False and result["events"] == 2
    assert result["first_broken_version"] == 3 and "missing" in result["reason"]


def test_verify_events_names_a_match_stream_cut_short(alice, bob, capsys):
    from django.core.management import CommandError, call_command

    match = match_create(player1=alice, player2=bob, first_dealer=alice, decks=[knock_deck()])
    other = match_create(player1=bob, player2=alice, first_dealer=bob, decks=[knock_deck()])
    match_act(match_id=match.id, player=bob, action={"type": "pass"})
    call_command("verify_events", verbosity=0)
    assert "OK" in capsys.readouterr().out
    last = eventstore.load(stream_id=match.stream_id)[-1]
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM eventstore_event WHERE position = %s", [last.position])
    for options in ({}, {"match": str(match.id)}):
        with pytest.raises(CommandError) as caught:
            call_command("verify_events", verbosity=0, **options)
        assert caught.value.returncode == 1 and match.stream_id in str(caught.value)
        assert f"CUT SHORT stream {match.stream_id} ends at version 2" in capsys.readouterr().err
    call_command("verify_events", match=str(other.id), verbosity=0)  # the other is whole
