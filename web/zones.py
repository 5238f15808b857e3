"""Time zones as a club reads them: CLDR's names through Babel in the page's language
("Tehran — Iran (GMT+03:30)", "تهران — ایران (+۰۳:۳۰ گرینویچ)"), the zones of the club's
country first, then UTC, then every other zone by name in the language's order. Only
CLDR's canonical zones are offered (no "Etc/GMT+3", "CST6CDT" or "US/Eastern", whose
names read wrong, the Etc ones with their sign reversed); a tournament already in another
zone keeps it (`zone_choices(also=...)`)."""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from collections.abc import Sequence
from zoneinfo import ZoneInfo

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_gmt, get_timezone_location

from web.localize import collation_key

UTC = "UTC"


@functools.cache
def _territories() -> dict[str, str]:
    return dict(get_global("zone_territories"))


@functools.cache
def canonical_zones() -> tuple[str, ...]:
    """The zones offered: CLDR's canonical ones this machine's tz database has, and UTC."""
    available = zoneinfo.available_timezones()
    zones = {
        zone
        for zone, territory in _territories().items()
        if zone in available and "/" in zone and territory not in ("001", "ZZ")
    }  # no Etc/GMT+3, CST6CDT (CLDR's world territory 001): their names read wrong
    return tuple(sorted(zones | {UTC}))


def country_of_zone(zone: str | None) -> str | None:
    """The country (ISO 3166 code) a zone belongs to, as CLDR says; None for UTC."""
    territory = _territories().get(zone or "")
    return territory if territory and territory != "001" else None


def country_of_language(language: str) -> str | None:
    """The country a language most likely means (CLDR's likely subtags: fa -> IR)."""
    likely = get_global("likely_subtags").get(language.split("-")[0].lower())
    if not likely:
        return None
    return Locale.parse(likely).territory


def zones_of_country(country: str | None) -> list[str]:
    if not country:
        return []
    offered = set(canonical_zones())
    return [z for z in get_global("territory_zones").get(country, []) if z in offered]


def default_zone(*, club_zone: str | None, language: str) -> str:
    """A new tournament's zone: its club's; else the zone of the language's country where
    it has one or two (fa: Asia/Tehran; de: Europe/Berlin); else UTC (en: the United
    States, with many)."""
    if club_zone and club_zone in canonical_zones():
        return club_zone
    zones = zones_of_country(country_of_language(language))
    return zones[0] if 0 < len(zones) <= 2 else UTC


def zone_label(zone: str, language: str, *, on: dt.date | None = None) -> str:
    """`zone` in `language`'s words with its offset on `on` (today): "Tehran — Iran
    (GMT+03:30)". A zone CLDR does not name keeps its id."""
    return _label(zone, language, on or dt.date.today())


@functools.lru_cache(maxsize=4096)
def _label(zone: str, language: str, on: dt.date) -> str:
    locale = Locale.parse(language.replace("-", "_"))
    try:
        tz = ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zone
    moment = dt.datetime.combine(on, dt.time(12), tzinfo=tz)
    offset = get_timezone_gmt(moment, locale=locale)
    if zone == UTC:
        return f"UTC ({offset})"
    country = country_of_zone(zone)
    if country is None:
        return f"{zone} ({offset})"
    city = get_timezone_location(tz, locale=locale, return_city=True)
    territory = locale.territories.get(country, country)
    place = city if city == territory else f"{city} — {territory}"
    return f"{place} ({offset})"


def zone_place(zone: str, language: str) -> str:
    """The place a zone is named after, in `language` ("Berlin", "تهران"); "UTC" for UTC;
    the id of a zone CLDR does not name."""
    return _place(zone, language)


@functools.lru_cache(maxsize=1024)
def _place(zone: str, language: str) -> str:
    if zone == UTC:
        return UTC
    try:
        tz = ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zone
    if country_of_zone(zone) is None:
        return zone
    return str(
        get_timezone_location(tz, locale=Locale.parse(language.replace("-", "_")), return_city=True)
    )


def zone_choices(
    *, language: str, first_country: str | None = None, also: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """(id, label) of every zone offered: `first_country`'s zones first, then UTC, then the
    others by label in the language's collation; `also` (a zone already set) where missing."""
    return list(_choices(language, first_country, tuple(also), dt.date.today()))


@functools.lru_cache(maxsize=64)
def _choices(
    language: str, first_country: str | None, also: tuple[str, ...], on: dt.date
) -> tuple[tuple[str, str], ...]:
    key = collation_key(language)
    first = sorted(zones_of_country(first_country), key=lambda z: key(_label(z, language, on)))
    rest = [z for z in canonical_zones() if z not in first and z != UTC]
    extra = [z for z in also if z and z not in canonical_zones()]
    labelled = sorted(((z, _label(z, language, on)) for z in rest + extra), key=lambda c: key(c[1]))
    ordered = [(z, _label(z, language, on)) for z in first]
    if UTC not in first:
        ordered.append((UTC, _label(UTC, language, on)))
    return tuple(ordered + labelled)
