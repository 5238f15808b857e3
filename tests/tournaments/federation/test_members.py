"""A federation's member list of 200 rows imported against its 3 clubs: the report says
exactly what matched (and links it), what is new and what conflicts, and why."""

from __future__ import annotations

import csv
import io
import random

import pytest
from django.core.management import call_command
from openpyxl import Workbook

from players.models import Club
from players.services import player_create
from tournaments.federation.files import member_rows
from tournaments.federation.models import Member
from tournaments.federation.selectors import federation_ids_of
from tournaments.federation.services import federation_get_or_create, federation_members_import
from tournaments.privacy.services import player_erase

pytestmark = pytest.mark.django_db

HEADER = ["federation_id", "name", "club", "birth_year", "country"]


def word(rng: random.Random) -> str:
    return "".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(4))


@pytest.fixture
def setting():
    """Three clubs, 160 players (two pairs of namesakes), and the 200 rows with what each
    should come to."""
    rng = random.Random(39)
    clubs = [Club.objects.create(name=n, slug=n.lower()) for n in ("North", "South", "East")]
    federation = federation_get_or_create(name="Gin Federation", club_slugs=["north", "south",
                                                                             "east"])  # fmt: skip
    rows, expected, players = [], {}, {}
    n = 0

    def row(name: str, club: Club | str, outcome: str, fed: str | None = None) -> None:
        nonlocal n
        n += 1
        fid = fed if fed is not None else f"F{n:05d}"
        rows.append([fid, name, club if isinstance(club, str) else club.name, "1980", "ro"])
        expected[n + 1] = outcome  # the file's line (the header is line 1)

    for i in range(150):  # matched, some as the desk folds them
        club = clubs[i % 3]
        name = f"{word(rng).title()} {word(rng).title()}"
        player = player_create(name=name)
        club.members.add(player)
        players[n + 2] = player.pk
        shown = {0: name, 1: name.upper(), 2: " ".join(reversed(name.split()))}[i % 3]
        row(shown, club, "matched")
    for i in range(30):
        row(f"{word(rng).title()} {word(rng).title()}", clubs[i % 3], "new")
    for i in range(8):  # a typo of an existing member's name: similar, for a person to say
        name = f"{word(rng).title()} {word(rng).title()}"
        club = clubs[i % 3]
        club.members.add(player_create(name=name))
        row(name[:-1] + ("a" if name[-1] != "a" else "e"), club, "similar")
    for _ in range(2):  # namesakes in one club: ambiguous (each row twice over: 4 rows)
        name = f"{word(rng).title()} {word(rng).title()}"
        for _ in range(2):
            clubs[0].members.add(player_create(name=name))
        row(name, clubs[0], "ambiguous")
        row(name.upper(), clubs[0], "ambiguous")
    for i in range(2):  # one federation id on two rows: both conflict
        fid = f"D{i}"
        row(f"{word(rng).title()} Dup", clubs[1], "duplicate_id", fed=fid)
        row(f"{word(rng).title()} Dup", clubs[2], "duplicate_id", fed=fid)
    row("Someone Else", "Far Away Club", "unknown_club")
    row("Another One", "Nowhere", "unknown_club")
    row("No Id", clubs[0], "incomplete", fed="")
    row("", clubs[0], "incomplete")
    assert len(rows) == 200
    return federation, rows, expected, players


def csv_bytes(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows([HEADER, *rows])
    return out.getvalue().encode()


def test_200_members_against_3_clubs_report_what_matched_is_new_and_conflicts(setting) -> None:
    federation, rows, expected, players = setting
    parsed = member_rows(content=csv_bytes(rows), filename="members.csv")
    report = federation_members_import(federation=federation, rows=parsed)
    assert report.counts() == {"matched": 150, "new": 30, "conflicts": 20}
    got = {r["line"]: "matched" for r in report.matched}
    got |= {r["line"]: "new" for r in report.new}
    got |= {r["line"]: r["reason"] for r in report.conflicts}
    assert got == expected
    for r in report.matched:
        assert r["player"] == players[r["line"]]
    ids = federation_ids_of(player_ids=players.values())
    assert ids == {pk: rows[line - 2][0] for line, pk in players.items()}
    # Again: the same report, nothing linked twice.
    again = federation_members_import(federation=federation, rows=parsed)
    assert again.counts() == report.counts()
    assert Member.objects.filter(federation=federation, player__isnull=False).count() == 150


def test_a_dry_run_keeps_nothing_and_xlsx_reads_as_csv(setting) -> None:
    federation, rows, _, _ = setting
    book = Workbook()
    sheet = book.active
    for r in [HEADER, *rows]:
        sheet.append(r)
    content = io.BytesIO()
    book.save(content)
    from_xlsx = member_rows(content=content.getvalue(), filename="members.xlsx")
    assert from_xlsx == member_rows(content=csv_bytes(rows), filename="members.csv")
    report = federation_members_import(federation=federation, rows=from_xlsx, dry_run=True)
    assert report.counts()["matched"] == 150
    assert not Member.objects.exists()


def test_the_command_reports_and_refuses_a_file_without_its_columns(setting, tmp_path) -> None:
    _, rows, _, _ = setting
    path = tmp_path / "members.csv"
    path.write_bytes(csv_bytes(rows))
    out = io.StringIO()
    call_command("import_members", str(path), "--federation", "Gin Federation", stdout=out)
    assert "200 rows: 150 matched, 30 new, 20 conflicts" in out.getvalue()
    bad = tmp_path / "bad.csv"
    bad.write_text("id,name\n1,Ann\n")
    with pytest.raises(Exception, match="federation_id"):
        call_command("import_members", str(bad), "--federation", "Gin Federation")


def test_erasing_a_player_erases_their_member_lines_name_and_birth_year(setting) -> None:
    federation, rows, _, players = setting
    parsed = member_rows(content=csv_bytes(rows), filename="members.csv")
    federation_members_import(federation=federation, rows=parsed)
    line, pk = next(iter(players.items()))
    player_erase(player_id=pk, by=None, reason="asked")
    member = Member.objects.get(player_id=pk)
    assert rows[line - 2][1] not in member.name and member.birth_year is None
    assert member.number == rows[line - 2][0]  # the federation's id and the link stay
