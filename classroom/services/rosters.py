"""Class lists from a file: a CSV of names, a OneRoster ``users.csv`` or a school system's
export with given and family names.

Reading a file saves nothing: ``roster_read`` returns one line per student row with the name
Snapclass would store and, where there is one, the problem with it. ``roster_import`` saves
the lines a teacher kept, and refuses (saving nothing) while any kept line has a problem.
Snapclass stores first names only, so a family name is used for nothing but telling two
children with the same first name apart, by its initial ("Ava L.", "Ava K.").
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from classroom.models import Student
from classroom.people.names import display_name_clean, name_key
from classroom.people.year_groups import YEAR_GROUP_CHOICES, YEAR_GROUPS, year_group_parse
from classroom.services.classes import STUDENT_NAME_MAX, STUDENTS_PER_CLASS_MAX, students_add

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

    from classroom.models import SchoolClass

ROSTER_FILE_MAX_BYTES = 512 * 1024
ROSTER_ROWS_MAX = 1000

# Header names, compared lower-cased without spaces, dots, dashes or underscores.
_GIVEN = {"givenname", "firstname", "forename", "first", "given", "preferredname", "名", "名字"}
_FAMILY = {"familyname", "lastname", "surname", "last", "family", "姓"}
_NAME = {"name", "names", "studentname", "student", "fullname", "displayname", "姓名", "學生姓名"}
_YEAR = {"grades", "grade", "yeargroup", "year", "yearlevel", "gradelevel", "年級"}
_ROLE = {"role"}
_STATUS = {"status"}
# OneRoster: only students are children; "tobedeleted" rows are gone from the school system.
_STUDENT_ROLES = {"student", "學生"}


@dataclass(frozen=True)
class RosterLine:
    """One row of the file: its line number, what it said, the name to store, any problem."""

    line: int
    text: str
    name: str
    problem: str = ""
    # The year group to store (``classroom.people.year_groups``), "" for none; as the file
    # wrote it when it is not one.
    year_group: str = ""

    @property
    def year_label(self) -> str:
        return str(dict(YEAR_GROUP_CHOICES).get(self.year_group, self.year_group))


@dataclass(frozen=True)
class RosterPreview:
    lines: tuple[RosterLine, ...]
    # Rows that are not children (teachers in a OneRoster file) or blank: left out silently.
    skipped: int = 0

    @property
    def problems(self) -> int:
        return sum(1 for line in self.lines if line.problem)

    @property
    def has_year_groups(self) -> bool:
        return any(line.year_group for line in self.lines)


def _decode(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    # Excel's "CSV UTF-8" has a BOM; Taiwanese school systems often export Big5 (cp950).
    for encoding in ("utf-8-sig", "cp950"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValidationError(
        _("This file could not be read as text. Save it as “CSV UTF-8” and upload it again.")
    )


def _key(header: str) -> str:
    return "".join(ch for ch in header.strip().casefold() if ch not in " ._-")


def _rows(text: str) -> list[list[str]]:
    sample = text[:4096]
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel  # one column: no delimiter to find
    return list(csv.reader(io.StringIO(text), dialect))


def _column(header: list[str], names: set[str]) -> int | None:
    for index, cell in enumerate(header):
        if _key(cell) in names:
            return index
    return None


def _cell(row: list[str], index: int | None) -> str:
    if index is None or index >= len(row):
        return ""
    return row[index].strip()


def _checked(
    lines: Sequence[RosterLine], *, existing: Collection[str], room: int
) -> tuple[RosterLine, ...]:
    """Each line with its problem: a name that cannot be stored, a repeat, a clash with the
    class, or no room left in the class."""
    seen: set[str] = set(existing)
    checked = []
    kept = 0
    for line in lines:
        if not line.name.strip():
            checked.append(replace(line, problem=_("No first name on this line.")))
            continue
        try:
            name = display_name_clean(line.name, max_length=STUDENT_NAME_MAX)
        except ValidationError as error:
            checked.append(replace(line, problem=" ".join(error.messages)))
            continue
        key = name_key(name)
        if key in existing:
            problem = _("%(name)s is already in this class.") % {"name": name}
        elif key in seen:
            problem = _("%(name)s is listed twice.") % {"name": name}
        elif kept >= room:
            problem = _("The class is full: a class can have at most %(max)d students.") % {
                "max": STUDENTS_PER_CLASS_MAX
            }
        else:
            problem = ""
            kept += 1
        seen.add(key)
        checked.append(replace(line, name=name, problem=problem))
    return tuple(checked)


def _with_initials(lines: list[tuple[int, str, str, str, str]]) -> list[RosterLine]:
    """(line, text, given, family, year group) → lines named by the given name, plus the
    family name's initial where two children share a given name."""
    counts: dict[str, int] = {}
    for _line, _text, given, _family, _year in lines:
        counts[name_key(given)] = counts.get(name_key(given), 0) + 1
    named = []
    for line, text, given, family, year in lines:
        name = given
        if family and counts[name_key(given)] > 1:
            name = f"{given} {family[0]}."
        named.append(RosterLine(line=line, text=text, name=name, year_group=year))
    return named


def _year_problem(text: str) -> str:
    return _(
        "The year group “%(year)s” is not one Snapclass knows: use 1 to 12, K or PK, "
        "or leave it empty."
    ) % {"year": text}


def _with_years(lines: Sequence[RosterLine], bad: Mapping[int, str]) -> tuple[RosterLine, ...]:
    """Each line with the problem of a year group that could not be read, unless it already
    has a problem."""
    return tuple(
        replace(line, problem=_year_problem(bad[line.line]))
        if line.line in bad and not line.problem
        else line
        for line in lines
    )


def _class_names(school_class: SchoolClass) -> set[str]:
    return {name_key(n) for n in school_class.students.values_list("display_name", flat=True)}


def roster_read(*, school_class: SchoolClass, data: bytes) -> RosterPreview:
    """What the file would add to the class, line by line; saves nothing. ValidationError
    if the file as a whole cannot be used (too big, not text, no name column)."""
    if not data.strip():
        raise ValidationError(_("The file is empty."))
    if len(data) > ROSTER_FILE_MAX_BYTES:
        raise ValidationError(
            _("The file is too big (at most %(kb)d KB): is it a class list?")
            % {"kb": ROSTER_FILE_MAX_BYTES // 1024}
        )
    try:
        rows = _rows(_decode(data))
    except csv.Error as error:
        raise ValidationError(
            _("This is not a CSV file we can read (%(error)s).") % {"error": error}
        ) from error
    if len(rows) > ROSTER_ROWS_MAX:
        raise ValidationError(
            _("The file has more than %(max)d rows: is it a class list?") % {"max": ROSTER_ROWS_MAX}
        )
    header = rows[0] if rows else []
    given_at = _column(header, _GIVEN)
    family_at = _column(header, _FAMILY)
    name_at = _column(header, _NAME)
    role_at = _column(header, _ROLE)
    status_at = _column(header, _STATUS)
    year_at = _column(header, _YEAR)
    has_header = given_at is not None or name_at is not None
    if not has_header and max((len(row) for row in rows), default=0) > 1:
        raise ValidationError(
            _(
                "No column of names found. The first line should name the columns "
                "(e.g. “First name”, “Last name”, or OneRoster's “givenName”), "
                "or the file should have one column of names."
            )
        )
    picked: list[tuple[int, str, str, str, str]] = []
    bad_years: dict[int, str] = {}
    skipped = 0
    for number, row in enumerate(rows, start=1):
        if has_header and number == 1:
            continue
        text = ", ".join(cell.strip() for cell in row if cell.strip())
        if not text:
            skipped += 1
            continue
        if role_at is not None and _key(_cell(row, role_at)) not in _STUDENT_ROLES:
            skipped += 1
            continue
        if status_at is not None and _key(_cell(row, status_at)) == "tobedeleted":
            skipped += 1
            continue
        if given_at is not None:
            given, family = _cell(row, given_at), _cell(row, family_at)
        elif name_at is not None:
            given, family = _cell(row, name_at), ""
        else:
            given, family = _cell(row, 0), ""
        year = year_group_parse(_cell(row, year_at))
        if year is None:  # kept as written, so confirming it is refused too
            year = bad_years[number] = _cell(row, year_at)
        picked.append((number, text, given, family, year))
    existing = _class_names(school_class)
    lines = _checked(
        _with_initials(picked), existing=existing, room=STUDENTS_PER_CLASS_MAX - len(existing)
    )
    return RosterPreview(lines=_with_years(lines, bad_years), skipped=skipped)


@transaction.atomic
def roster_import(
    *, school_class: SchoolClass, lines: Sequence[RosterLine], dropped: Collection[int]
) -> list[Student]:
    """Add the lines the teacher kept (every line not in ``dropped``) to the class. The kept
    lines are checked again; if any has a problem nothing is saved (ValidationError with the
    checked lines in ``params["lines"]``)."""
    kept = [line for line in lines if line.line not in dropped]
    existing = _class_names(school_class)
    checked = _checked(
        [replace(line, problem="") for line in kept],
        existing=existing,
        room=STUDENTS_PER_CLASS_MAX - len(existing),
    )
    checked = _with_years(
        checked,
        {
            line.line: line.year_group
            for line in checked
            if line.year_group not in ("", *YEAR_GROUPS)
        },
    )
    if any(line.problem for line in checked):
        raise ValidationError(
            _(
                "Some lines still have a problem: leave them out, or fix the file and upload it "
                "again. Nothing was saved."
            ),
            code="problems",
            params={"lines": checked},
        )
    if not checked:
        raise ValidationError(_("No names left to add. Nothing was saved."), code="empty")
    added = students_add(school_class=school_class, names=[line.name for line in checked])
    for student, line in zip(added, checked, strict=True):
        student.year_group = line.year_group
    Student.objects.bulk_update([s for s in added if s.year_group], ["year_group"])
    return added
