"""Full dates in the forms changelogs write them, as YYYY-MM-DD.

    find_date("0.28.0 (28th November, 2024)")          # "2024-11-28"
    find_date("Revision 0.6.5, released 26-10-2026")    # "2026-10-26": the day first, as 26 is no month
    find_date("released 08-07-2026", order="dmy")       # "2026-07-08": pyasn1 writes its days first
    find_date("= 4.15.0 (20260607)")                    # "2026-06-07"
    find_date("2.0 - 10/19/2002")                       # "2002-10-19": the month first, as 19 is no month

ISO dates and spelled-out months say which number is which. Numbers joined by hyphens or dots with
the year last do not always: pyasn1 writes "22-06-2015" (the day first), aiohttp "12-30-2015" (the
month first), and "08-07-2026" could be either. Such a date is read when a number over 12 says the
order, or when the document's other dates do (``date_order``: pyasn1's "26-10-2026" says the day
comes first in all of them; aiohttp writes both ways, so its "08-02-2016" stays undated rather than
guessed). Slashes are read the same way (feedparser's "9/27/2002" says the month comes first, and
so its "6/11/2003" is 11 June). Dots with no other word are read day first (termcolor's
"(dd.mm.yyyy)", pycparser's "(04.12.2010)").
"""

from __future__ import annotations

from collections.abc import Iterable

from .regex import lazy_compile

_MONTH_NAMES = "january february march april may june july august september october november december".split()
MONTH = {**{m: i for i, m in enumerate(_MONTH_NAMES, 1)}, **{m[:3]: i for i, m in enumerate(_MONTH_NAMES, 1)}, "sept": 9}
MONTHS = "|".join(sorted(MONTH, key=len, reverse=True))  # a regex alternation of month names and abbreviations
ISO = lazy_compile(r"(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)")
# A space may stand before the comma (moment's "_Released April 12 , 2014_").
SPELLED = lazy_compile(r"(?:(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?\s*,?\s+(\d{4}))|(?:([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?\s*,?\s+(\d{4}))")
# The year first with dots or no separator, alone in brackets ("(2021.11.06)", "(20260607)", "(20190720,
# ..."): bare, "2024.08.30" is a calendar version.
_BRACKETED = lazy_compile(r"[(\[]\s*(\d{4})(?:\.(\d{1,2})\.(\d{1,2})|(\d\d)(\d\d))\s*[,;)\]]")
# The year last, day and month in either order: "22-06-2015", "04.12.2010", "9/27/2002"; not inside a
# version ("1.2.2010.5").
NUMERIC = lazy_compile(r"(?<![\d.])(\d{1,2})([-./])(\d{1,2})\2(\d{4})(?!\d|\.\d)")


def find_date(text: str, order: str | None = None) -> str | None:
    """The first full date in ``text`` as YYYY-MM-DD ("2024-11-13", "28th November, 2024",
    "(2021.11.06)", "22-06-2015"); ``order`` ("dmy" or "mdy", from ``date_order``) reads a numeric
    date whose numbers could be either day or month ("08-07-2026")."""
    iso = ISO.search(text)
    if iso and 1 <= int(iso.group(2)) <= 12 and 1 <= int(iso.group(3)) <= 31:
        return f"{iso.group(1)}-{int(iso.group(2)):02d}-{int(iso.group(3)):02d}"
    for m in SPELLED.finditer(text):
        day, month, year = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(4), m.group(6))
        number = MONTH.get(month.lower())
        if number and 1 <= int(day) <= 31:
            return f"{int(year):04d}-{number:02d}-{int(day):02d}"
    for m in _BRACKETED.finditer(text):
        if found := _ymd(m.group(1), m.group(2) or m.group(4), m.group(3) or m.group(5)):
            return found
    for m in NUMERIC.finditer(text):
        said = _said_order(m)
        if said is None and order is None and m.group(2) == ".":
            said = "dmy"
        chosen = said or order
        if chosen is not None and (found := _ymd(m.group(4), *((m.group(3), m.group(1)) if chosen == "dmy"
                                                               else (m.group(1), m.group(3))))):
            return found
    return None


def date_order(texts: Iterable[str]) -> str | None:
    """How a document orders the day and month of its numeric dates: "dmy" where one of them puts a
    number over 12 first ("26-10-2026") and none second, "mdy" the other way round, else None
    (none says, or they say both)."""
    said = {_said_order(m) for text in texts for m in NUMERIC.finditer(text)} - {None}
    return said.pop() if len(said) == 1 else None


def _said_order(m) -> str | None:
    """The order a numeric date's own numbers say: "dmy" for "22-06-2015", "mdy" for "12-30-2015", else None."""
    first, second = int(m.group(1)), int(m.group(3))
    if first > 12 and 1 <= second <= 12:
        return "dmy"
    if second > 12 and 1 <= first <= 12:
        return "mdy"
    return None


def _ymd(year: str, month: str, day: str) -> str | None:
    """YYYY-MM-DD of a year, month and day that can be a date (a month to 12, a day to 31), else None."""
    if 1 <= int(month) <= 12 and 1 <= int(day) <= 31:
        return f"{int(year):04d}-{int(month):02d}-{int(day):02d}"
    return None
