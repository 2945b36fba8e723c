"""The verdicts in the class summary download and the codebook: a year group column, each
skill's band with its percentile and interval, whom the child is compared with."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse

from classroom.analytics.verdicts import BAND_TEXT
from classroom.exports.summary_rows import ALL_LEVELS
from classroom.models import Student
from tests.classroom.exports.test_exports import SUMMARY_HEADER
from tests.seeding.palm_strike import demo_class_seed

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

    from classroom.models import SchoolClass

pytestmark = pytest.mark.django_db

VERDICT_HEADERS = SUMMARY_HEADER[SUMMARY_HEADER.index("Year group") :]


@pytest.fixture
def seeded(teacher: User) -> SchoolClass:
    school_class = demo_class_seed(teacher=teacher, students=10, sessions=2, trials_per_session=80)
    Student.objects.filter(school_class=school_class).update(year_group="4")
    return school_class


def _rows(client: Client, school_class: SchoolClass, kind: str) -> list[dict[str, str]]:
    response = client.get(reverse("class_export", args=[school_class.pk, kind]))
    assert response.status_code == 200
    body = b"".join(response.streaming_content) if response.streaming else response.content  # type: ignore[attr-defined]
    return list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))


def test_the_class_summary_has_each_childs_verdicts(
    teacher_client: Client, seeded: SchoolClass
) -> None:
    rows = _rows(teacher_client, seeded, "summary.csv")
    assert all(header in rows[0] for header in VERDICT_HEADERS)
    overall = [row for row in rows if row["Level"] == ALL_LEVELS]
    assert len(overall) == 10
    bands = {str(text) for text in BAND_TEXT.values()}
    for row in overall:
        assert row["Year group"] == "4"
        assert row["Verdict (speed)"] in bands
        assert row["Verdict (rate)"] in bands
        low, point, high = (
            int(row[f"Verdict (speed): percentile{end}"]) for end in (" 95 % low", "", " 95 % high")
        )
        assert 0 <= low <= point <= high <= 100
        # Ten children of year 4 at the school, under 30: the class is the reference.
        assert row["Verdict compared with"].startswith("this class (9 children)")
        assert row["Verdict notes"]
    # The level rows carry no verdict (it is of the latest session's level).
    assert all(not row["Verdict (speed)"] for row in rows if row["Level"] != ALL_LEVELS)


def test_the_codebook_says_how_a_verdict_is_made(
    teacher_client: Client, seeded: SchoolClass
) -> None:
    rows = _rows(teacher_client, seeded, "codebook.csv")
    text = "\n".join(" | ".join(row.values()) for row in rows)
    for header in VERDICT_HEADERS:
        assert header in text
    assert "25th percentile" in text
    assert "ROAR" in text
    assert "Yeatman" in text
