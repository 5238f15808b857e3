"""A member list's rows from a CSV or XLSX file: a header row naming federation_id, name
and club (birth_year and country optional), then one member a row."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from zipfile import BadZipFile

from openpyxl import load_workbook
from openpyxl.utils.exceptions import InvalidFileException

from core.errors import ValidationError

REQUIRED = ("federation_id", "name", "club")
OPTIONAL = ("birth_year", "country")


@dataclass(frozen=True)
class MemberRow:
    line: int
    federation_id: str
    name: str
    club: str
    birth_year: int | None
    country: str


def _rows(header: list[str], body: list[tuple[int, list[str]]]) -> list[MemberRow]:
    names = [h.strip().lower() for h in header]
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        raise ValidationError(
            "the member list needs the columns %(columns)s", code="member_columns",
            params={"columns": ", ".join(missing)},
        )  # fmt: skip
    out = []
    for line, cells in body:
        row = {n: (cells[i] if i < len(cells) else "") for i, n in enumerate(names)}
        year = str(row.get("birth_year") or "").strip()
        out.append(MemberRow(
            line, str(row["federation_id"]).strip(), str(row["name"]).strip(),
            str(row["club"]).strip(), int(year) if year.isdigit() else None,
            str(row.get("country") or "").strip().upper()[:3],
        ))  # fmt: skip
    return out


def member_rows(*, content: bytes, filename: str) -> list[MemberRow]:
    """The file's rows (ValidationError member_file: not a CSV/XLSX member list)."""
    try:
        if filename.lower().endswith(".xlsx"):
            sheet = load_workbook(io.BytesIO(content), read_only=True, data_only=True).active
            table = [
                ["" if v is None else str(v) for v in r] for r in sheet.iter_rows(values_only=True)
            ]
        else:
            table = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    except (ValueError, KeyError, OSError, UnicodeDecodeError, BadZipFile, InvalidFileException,
            csv.Error) as exc:  # fmt: skip
        raise ValidationError("not a CSV or XLSX member list", code="member_file") from exc
    if not table:
        raise ValidationError("the member list is empty", code="member_file")
    body = [(n, r) for n, r in enumerate(table[1:], start=2) if any(c.strip() for c in r)]
    return _rows(table[0], body)
