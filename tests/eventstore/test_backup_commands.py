"""Issue 33: `manage.py backup` and `manage.py restore`, the parts that need no second
database (the restore drill, tests/reliability/test_restore_drill.py, does the rest)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from eventstore.backups import backups_prune, manifest_read

pytestmark = pytest.mark.django_db


def test_keep_prunes_all_but_the_newest_backups(tmp_path):
    stamps = ["20261101T030000Z", "20261102T030000Z", "20261103T030000Z"]
    for stamp in stamps:
        (tmp_path / f"hollywood-gin-{stamp}.dump").write_bytes(b"x")
        (tmp_path / f"hollywood-gin-{stamp}.manifest.json").write_text("{}")
    (tmp_path / "something-else.dump").write_bytes(b"kept")
    removed = backups_prune(output_dir=tmp_path, keep=2)
    assert sorted(p.name for p in removed) == [
        "hollywood-gin-20261101T030000Z.dump",
        "hollywood-gin-20261101T030000Z.manifest.json",
    ]
    assert len(list(tmp_path.glob("hollywood-gin-*"))) == 4
    assert (tmp_path / "something-else.dump").exists()


@pytest.mark.skipif(connection.vendor == "postgresql", reason="the SQLite refusal")
def test_backup_on_sqlite_says_it_needs_postgresql(tmp_path):
    with pytest.raises(CommandError, match="needs PostgreSQL"):
        call_command("backup", "--output-dir", str(tmp_path), stdout=io.StringIO())


def test_the_manifest_names_key_ids_and_never_a_key(settings):
    import eventstore

    settings.EVENT_CHAIN_KEYS = "2025:first-very-secret,2026:second-very-secret"
    eventstore.append(
        stream_id="s-1", expected_version=0, events=[eventstore.NewEvent("Scored", {"p": 1})]
    )
    manifest = manifest_read()
    assert manifest["key_ids"] == ["2026"] and manifest["events"] == 1
    assert "very-secret" not in json.dumps(manifest)


def test_restore_refuses_another_database_engine_and_a_changed_dump(tmp_path):
    dump = tmp_path / "hollywood-gin-20261101T030000Z.dump"
    dump.write_bytes(b"not the dump")
    (tmp_path / "hollywood-gin-20261101T030000Z.manifest.json").write_text(
        json.dumps({"dump_sha256": "0" * 64, "key_ids": []})
    )
    with pytest.raises(CommandError, match="PostgreSQL"):
        call_command("restore", str(dump), "--database-url", "sqlite:////tmp/x.sqlite3")
    url = "postgres://postgres@127.0.0.1:5432/hg_data_never_made"
    with pytest.raises(CommandError, match="sha256"):
        call_command("restore", str(dump), "--database-url", url, stderr=io.StringIO())
