"""A student's year group (school grade): the values Snapclass stores and reading one from a
class list file, in English, in Chinese or as OneRoster's ``grades`` (CEDS grade codes).

Norms compare a child with the school's children of the same year group
(``classroom.selectors.verdicts``), so every spelling of one year must become one value.
"""

from __future__ import annotations

import re

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

PRESCHOOL = "PK"
KINDERGARTEN = "K"
YEARS = tuple(str(n) for n in range(1, 13))
YEAR_GROUPS = (PRESCHOOL, KINDERGARTEN, *YEARS)

YEAR_GROUP_CHOICES = [
    (PRESCHOOL, gettext_lazy("Preschool")),
    (KINDERGARTEN, gettext_lazy("Kindergarten")),
    *((year, format_lazy(gettext_lazy("Year {}"), year)) for year in YEARS),
]

# OneRoster's (CEDS) codes and common words for the years before year 1.
_BEFORE_YEAR_ONE = {
    "pk": PRESCHOOL,
    "pre-k": PRESCHOOL,
    "prek": PRESCHOOL,
    "pr": PRESCHOOL,
    "ps": PRESCHOOL,
    "it": PRESCHOOL,
    "preschool": PRESCHOOL,
    "nursery": PRESCHOOL,
    "幼幼班": PRESCHOOL,
    "小班": PRESCHOOL,
    "k": KINDERGARTEN,
    "kg": KINDERGARTEN,
    "tk": KINDERGARTEN,
    "kindergarten": KINDERGARTEN,
    "reception": KINDERGARTEN,
    "幼兒園": KINDERGARTEN,
    "幼稚園": KINDERGARTEN,
    "大班": KINDERGARTEN,
}
_CHINESE_NUMBERS = {
    "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
    "七": 7, "八": 8, "九": 9, "十": 10, "十一": 11, "十二": 12,
}  # fmt: skip
# Words around the number: "Year 3", "Grade 03", "Y3", "P3", "小三", "三年級".
_AROUND = re.compile(
    r"^(?:year|grade|primary|yr|gr|國小|国小|小|y|g|p)?\s*(.+?)\s*(?:年級|年级|th|rd|nd|st)?$"
)


def year_group_parse(text: str) -> str | None:
    """The stored value of ``text`` ("" for none), or None when it is not a year group.
    OneRoster's ``grades`` may list several ("03,04"): the first one counts."""
    first = re.split(r"[,;/]", text.strip(), maxsplit=1)[0].strip().casefold()
    if not first:
        return ""
    if first in _BEFORE_YEAR_ONE:
        return _BEFORE_YEAR_ONE[first]
    found = _AROUND.match(first)
    number = found.group(1) if found else first
    # Decimal digits only: "¹" and "①" are digits to ``isdigit`` and not numbers to ``int``.
    if number.isdecimal():
        year = int(number)
    elif number in _CHINESE_NUMBERS:
        year = _CHINESE_NUMBERS[number]
    else:
        return None
    return str(year) if 1 <= year <= 12 else None
