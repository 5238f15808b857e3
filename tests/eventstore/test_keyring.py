"""Issue 33: the chain key as a keyring. Every seal, checkpoint and snapshot records its key
id; the newest key signs, all verify; a restore with another SECRET_KEY and the same chain
key verifies; without the chain key the verifier names the missing key and never says
"forged"."""

from __future__ import annotations

import io

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.db import connection

import eventstore
from eventstore import NewEvent
from eventstore.models import ChainKeyRecord, Checkpoint, Snapshot, StoredEvent
from eventstore.seals import keyring, signing_key

pytestmark = pytest.mark.django_db


def use_keys(settings, *, keys: str = "", key: str = "", key_id: str = "1") -> None:
    settings.EVENT_CHAIN_KEYS = keys
    settings.EVENT_CHAIN_KEY = key
    settings.EVENT_CHAIN_KEY_ID = key_id


def play(stream_id: str = "match-k", n: int = 3, start: int = 0) -> None:
    for version in range(start, start + n):
        eventstore.append(
            stream_id=stream_id,
            expected_version=version,
            events=[NewEvent("Scored", {"points": version}, {"actor": "p1"})],
        )
    eventstore.checkpoints_take()
    eventstore.snapshot_save(
        stream_id=stream_id, version=start + n, state={"points": start + n}, kind="k1"
    )


def verify_events(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_events", *args, stdout=out, stderr=err, verbosity=0)
    except CommandError as exc:
        return exc.returncode, out.getvalue() + err.getvalue() + str(exc)
    return 0, out.getvalue() + err.getvalue()


def test_a_keyring_is_read_oldest_first_and_the_newest_signs(settings, tmp_path):
    use_keys(settings, keys="2025:first-secret, 2026:second-secret")
    assert [k.key_id for k in keyring()] == ["2025", "2026"]
    assert signing_key().key_id == "2026"
    ring = tmp_path / "chain-keys"
    ring.write_text("# the club's keys\n2025:first-secret\n\n2026:second-secret\n")
    use_keys(settings)
    settings.EVENT_CHAIN_KEYS_FILE = str(ring)
    assert [k.key_id for k in keyring()] == ["2025", "2026"]
    assert "second-secret" not in repr(keyring())
    settings.EVENT_CHAIN_KEYS_FILE = ""
    for bad in ("no-colon", "a b:secret", "x:1,x:2"):
        use_keys(settings, keys=bad)
        with pytest.raises(ImproperlyConfigured):
            keyring()


def test_every_seal_checkpoint_and_snapshot_records_its_key_id(settings):
    use_keys(settings, key="kept-apart", key_id="club-2026")
    play()
    assert set(StoredEvent.objects.values_list("key_id", flat=True)) == {"club-2026"}
    assert set(Checkpoint.objects.values_list("key_id", flat=True)) == {"club-2026"}
    assert set(Snapshot.objects.values_list("key_id", flat=True)) == {"club-2026"}
    receipt = eventstore.receipt_sign(stream_id="match-k", version=2)
    assert receipt["key_id"] == "club-2026"
    assert not eventstore.receipts_check(receipts=[receipt])


def test_a_restore_with_another_secret_key_and_the_same_chain_key_verifies(settings):
    use_keys(settings, key="kept-apart", key_id="club-2026")
    play()
    settings.SECRET_KEY = "another-install's-secret-key-" + "x" * 30
    code, output = verify_events("--deep")
    assert code == 0, output
    assert "OK: 3 events" in output


def test_without_the_chain_key_the_missing_key_is_named_and_nothing_is_forged(settings):
    use_keys(settings, key="kept-apart", key_id="club-2026")
    play()
    receipt = eventstore.receipt_sign(stream_id="match-k", version=3)
    use_keys(settings)  # the restored install derives its key from its own SECRET_KEY
    settings.SECRET_KEY = "another-install's-secret-key-" + "x" * 30
    result = eventstore.verify()
    assert not result.ok and not result.broken
    assert result.missing_keys == (("club-2026", 4, 1),)  # 3 events and a checkpoint
    code, output = verify_events("--deep")
    assert code == 1
    assert "sealed with key club-2026, which this install does not have" in output
    assert "forged" not in output.lower()
    assert "forged" not in str(eventstore.receipts_check(receipts=[receipt])).lower()
    # Readers ignore the snapshot they cannot check, and read the events.
    assert eventstore.snapshot_load(stream_id="match-k", kind="k1") is None


def test_another_secret_under_the_same_key_id_is_a_missing_key_not_forgery(settings):
    use_keys(settings, key="kept-apart", key_id="club")
    eventstore.chain_key_register()
    play()
    use_keys(settings, key="a-different-secret", key_id="club")
    code, output = verify_events()
    assert code == 1
    assert "sealed with key club, which this install does not have" in output
    assert "forged" not in output.lower()
    with pytest.raises(eventstore.KeyConflictError):
        eventstore.chain_key_register()


def test_seals_from_before_key_ids_are_the_first_keys_and_named_when_it_is_missing(settings):
    use_keys(settings, key="the-old-key", key_id="old")
    play()
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute("UPDATE eventstore_event SET key_id = NULL")
    Checkpoint.objects.update(key_id=None)
    Snapshot.objects.update(key_id=None)
    # As migration 0003 records it on an install that had seals.
    ChainKeyRecord.objects.update_or_create(
        key_id="old",
        defaults={"check_value": eventstore.seals.key_check(keyring()[0]), "unlabelled": True},
    )
    use_keys(settings, keys="old:the-old-key,new:the-new-key")
    assert verify_events("--deep")[0] == 0
    use_keys(settings, keys="new:the-new-key")
    code, output = verify_events("--deep")
    assert code == 1
    assert "sealed with key old, which this install does not have" in output
    assert "forged" not in output.lower()


def test_a_rotated_key_signs_from_then_on_and_the_old_seals_still_verify(settings):
    use_keys(settings, keys="2025:first-secret")
    play()
    use_keys(settings, keys="2025:first-secret,2026:second-secret")
    play(start=3)
    keys = list(StoredEvent.objects.order_by("version").values_list("key_id", flat=True))
    assert keys == ["2025"] * 3 + ["2026"] * 3
    assert set(Checkpoint.objects.values_list("key_id", flat=True)) == {"2025", "2026"}
    assert verify_events("--deep")[0] == 0


def test_a_seal_made_with_another_secret_is_still_forgery(settings):
    use_keys(settings, keys="2025:first-secret")
    play()
    forged = eventstore.seals.event_seal("0" * 64, eventstore.seals.ChainKey("2025", b"guess"))
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute("UPDATE eventstore_event SET seal = %s WHERE version = 2", [forged])
    code, output = verify_events()
    assert code == 1
    assert "seal mismatch" in output


def test_rotate_chain_key_adds_a_new_newest_key_to_the_keyring_file(settings, tmp_path):
    ring = tmp_path / "chain-keys"
    use_keys(settings, key="the-old-key", key_id="1")
    out = io.StringIO()
    call_command("rotate_chain_key", "--keys-file", str(ring), "--id", "2027", stdout=out)
    lines = [ln for ln in ring.read_text().splitlines() if not ln.startswith("#")]
    assert lines[0] == "1:the-old-key" and lines[1].startswith("2027:")
    assert ring.stat().st_mode & 0o077 == 0  # for its owner only
    assert "EVENT_CHAIN_KEYS_FILE" in out.getvalue()
    assert lines[1] not in out.getvalue()  # the secret is not printed
    use_keys(settings)
    settings.EVENT_CHAIN_KEYS_FILE = str(ring)
    assert signing_key().key_id == "2027"
    with pytest.raises(CommandError, match="already"):
        call_command("rotate_chain_key", "--keys-file", str(ring), "--id", "2027")


def test_the_match_view_s_receipt_carries_its_key_id(settings, client):
    """A receipt kept from the API is checked with the key it names, after a rotation
    too."""
    from tests.factories import MatchFactory, UserFactory

    use_keys(settings, keys="2025:first-secret,2026:second-secret")
    match = MatchFactory()
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    receipt = client.get(f"/api/matches/{match.pk}/").json()["receipt"]
    assert receipt["key_id"] == "2026"
    use_keys(settings, keys="2025:first-secret,2026:second-secret,2027:third-secret")
    assert eventstore.receipts_check(receipts=[receipt]) == []


def test_the_upgrade_records_the_key_that_made_the_seals_without_ids(settings):
    """An install that ran without EVENT_CHAIN_KEY (its key derived from SECRET_KEY) and is
    upgraded with only a new key configured: its old seals are named as made with the
    derived key, which this install lacks, never forged; with that key back, they verify."""
    import importlib

    from django.apps import apps as global_apps

    from eventstore.seals import derived_key

    use_keys(settings)  # as before key ids: the derived key
    play()
    old = derived_key(settings.SECRET_KEY)
    with eventstore.immutability_suspended(), connection.cursor() as cursor:
        cursor.execute("UPDATE eventstore_event SET key_id = NULL")
    Checkpoint.objects.update(key_id=None)
    ChainKeyRecord.objects.all().delete()
    use_keys(settings, key="the-new-production-key", key_id="2027")
    migration = importlib.import_module("eventstore.migrations.0003_chain_key_ids")
    migration.record_unlabelled_key(global_apps, None)
    assert ChainKeyRecord.objects.get(unlabelled=True).key_id == old.key_id
    settings.SECRET_KEY = "the production secret key, rotated since " + "x" * 20
    code, output = verify_events()
    assert code == 1
    assert f"sealed with key {old.key_id}, which this install does not have" in output
    assert "forged" not in output.lower()
    use_keys(settings, keys=f"{old.key_id}:hex:{old.secret.hex()},2027:the-new-production-key")
    assert verify_events()[0] == 0
