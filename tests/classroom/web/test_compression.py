"""Pages go out gzip-compressed to a browser that takes gzip, but for those with a sign-in
secret in their body (BREACH: classroom/web/compression.py), and downloads stream as they are."""

from __future__ import annotations

import gzip
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from classroom.services.practice_access import practice_code_open

if TYPE_CHECKING:
    from django.http import HttpResponse

    from classroom.models import GameSession, SchoolClass

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def _get(client: Client, url: str) -> HttpResponse:
    response: HttpResponse = client.get(url, **GZIP)  # type: ignore[arg-type]
    assert response.status_code == 200, url
    return response


def _compressed(response: HttpResponse) -> str:
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    return gzip.decompress(response.content).decode()


def _uncompressed(response: HttpResponse) -> str:
    assert not response.has_header("Content-Encoding")
    # Nor compressed on the way (HAProxy honours no-transform), nor kept.
    assert {"no-store", "no-transform"} <= set(
        response["Cache-Control"].replace(" ", "").split(",")
    )
    return response.content.decode()


@pytest.mark.parametrize("name", ["home", "login", "signup", "join", "practice_sign_in"])
def test_a_public_page_is_compressed_with_its_csrf_token_masked(db: None, name: str) -> None:
    client = Client()
    first = _compressed(_get(client, reverse(name)))
    second = _compressed(_get(client, reverse(name)))
    assert "</html>" in first
    # Django masks the CSRF token anew for every response, so it never repeats to be guessed.
    tokens = [page.split('name="csrfmiddlewaretoken" value="')[1][:64] for page in (first, second)]
    assert tokens[0] != tokens[1]


def test_no_other_site_can_fetch_a_page_with_the_teachers_cookies(settings: Any) -> None:
    # What makes compressing the teacher's pages safe (classroom/web/compression.py).
    assert settings.SESSION_COOKIE_SAMESITE == settings.CSRF_COOKIE_SAMESITE == "Lax"


def test_a_browser_that_takes_no_gzip_gets_the_page_as_it_is(db: None) -> None:
    response = Client().get(reverse("login"))
    assert not response.has_header("Content-Encoding")
    assert "</html>" in response.content.decode()


def test_teacher_pages_without_a_sign_in_secret_are_compressed(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    for url in (
        reverse("class_detail", args=[school_class.pk]),
        reverse("class_overview", args=[school_class.pk]),
        reverse("student_progress", args=[school_class.pk, ava.pk]),
        reverse("session_new"),
        reverse("teacher_settings"),
    ):
        assert "</html>" in _compressed(_get(teacher_client, url)), url


def test_pages_that_show_a_badge_a_join_code_or_a_practice_code_are_not_compressed(
    teacher_client: Client, school_class: SchoolClass, class_session: GameSession
) -> None:
    practice_code_open(school_class=school_class)
    school_class.refresh_from_db()
    ava = school_class.students.get(display_name="Ava")
    shown = {
        reverse("home"): class_session.code,
        reverse("session_console", args=[class_session.pk]): class_session.code,
        reverse("session_projector", args=[class_session.pk]): class_session.code,
        reverse("class_practice", args=[school_class.pk]): school_class.practice_code,
        reverse("class_badges", args=[school_class.pk]): ava.token,
    }
    for url, secret in shown.items():
        assert secret in _uncompressed(_get(teacher_client, url)), url


def test_a_download_streams_uncompressed(teacher_client: Client, school_class: SchoolClass) -> None:
    url = reverse("class_export", args=[school_class.pk, "trials.csv"])
    response = teacher_client.get(url, **GZIP)  # type: ignore[arg-type]
    assert response.status_code == 200
    assert response.streaming
    assert not response.has_header("Content-Encoding")
