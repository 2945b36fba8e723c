"""Adding students from a file through the pages: preview, marked problems, confirm."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from classroom.models import Student

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

pytestmark = pytest.mark.django_db


def _upload(
    client: Client, school_class: SchoolClass, text: str, headers: dict[str, str] | None = None
) -> str:
    response = client.post(
        reverse("class_roster_preview", args=[school_class.pk]),
        {"file": SimpleUploadedFile("class.csv", text.encode(), content_type="text/csv")},
        headers=headers or {},
    )
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_the_class_page_links_to_the_file_upload(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    page = teacher_client.get(reverse("class_detail", args=[school_class.pk])).content.decode()
    assert reverse("class_roster", args=[school_class.pk]) in page
    upload = teacher_client.get(reverse("class_roster", args=[school_class.pk]))
    assert upload.status_code == 200
    assert 'type="file"' in upload.content.decode()


def test_a_preview_marks_problems_and_saves_nothing(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    before = Student.objects.count()
    text = _upload(
        teacher_client,
        school_class,
        "First name,Last name\nFay,Ng\nAva,Lin\n",
        headers={"HX-Request": "true"},
    )
    assert "<html" not in text, "htmx gets the preview partial only"
    assert 'id="roster-line-2"' in text
    assert "Ava is already in this class." in text
    assert "1 line has a problem" in text
    assert Student.objects.count() == before


def test_confirming_with_a_problem_kept_saves_nothing_and_says_so(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    before = Student.objects.count()
    url = reverse("class_roster_confirm", args=[school_class.pk])
    posted = {
        "line": ["2", "3"],
        "name-2": "Fay",
        "name-3": "Ava",
        "text-2": "Fay",
        "text-3": "Ava",
    }
    response = teacher_client.post(url, posted, headers={"HX-Request": "true"})
    text = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert "Nothing was saved" in text
    assert "Ava is already in this class." in text
    assert Student.objects.count() == before

    response = teacher_client.post(url, {**posted, "drop": ["3"]}, headers={"HX-Request": "true"})
    assert response.headers["HX-Redirect"] == reverse("class_detail", args=[school_class.pk])
    assert Student.objects.count() == before + 1
    assert school_class.students.filter(display_name="Fay").exists()


def test_a_broken_preview_post_changes_nothing(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    before = Student.objects.count()
    url = reverse("class_roster_confirm", args=[school_class.pk])
    for posted in ({}, {"line": ["x"]}, {"line": ["2"], "drop": ["two"]}):
        response = teacher_client.post(url, posted)
        assert response.status_code == 200
        assert "upload the file again" in html.unescape(response.content.decode())
    assert Student.objects.count() == before


def test_a_file_that_is_not_a_class_list_says_why(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    text = _upload(teacher_client, school_class, "id,grade\n1,3\n")
    assert "No column of names found" in text
    response = teacher_client.post(reverse("class_roster_preview", args=[school_class.pk]), {})
    assert "This field is required" in html.unescape(response.content.decode())


def test_the_pages_take_only_what_they_should(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    for name in ("class_roster_preview", "class_roster_confirm"):
        assert teacher_client.get(reverse(name, args=[school_class.pk])).status_code == 405


def test_another_teacher_cannot_preview_or_add(
    school_class: SchoolClass, other_teacher: User
) -> None:
    intruder = Client()
    intruder.force_login(other_teacher)
    before = Student.objects.count()
    upload = SimpleUploadedFile("class.csv", b"Mallory\n", content_type="text/csv")
    assert intruder.get(reverse("class_roster", args=[school_class.pk])).status_code == 404
    preview = intruder.post(
        reverse("class_roster_preview", args=[school_class.pk]), {"file": upload}
    )
    assert preview.status_code == 404
    confirm = intruder.post(
        reverse("class_roster_confirm", args=[school_class.pk]),
        {"line": ["1"], "name-1": "Mallory"},
    )
    assert confirm.status_code == 404
    assert Student.objects.count() == before


def test_the_preview_is_in_chinese_for_a_chinese_teacher(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    text = _upload(teacher_client, school_class, "Ava\n", {"Accept-Language": "zh-Hant"})
    assert "已經在這個班級" in text
