"""Which student a tablet is signed in as for practice: a signed cookie holding their badge
token, so rotating the badge (a lost card) also signs that tablet out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings

from classroom.selectors.classes import student_get_by_token

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from classroom.models import Student

PRACTICE_COOKIE = "practice_student"
_SALT = "snapclass.practice"


def practice_student_set(response: HttpResponse, *, student: Student) -> None:
    response.set_signed_cookie(
        PRACTICE_COOKIE,
        student.token,
        salt=_SALT,
        max_age=settings.SEAT_COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )


def practice_student_get(request: HttpRequest) -> Student | None:
    token = request.get_signed_cookie(PRACTICE_COOKIE, default="", salt=_SALT)
    return student_get_by_token(token=token) if token else None


def practice_student_forget(response: HttpResponse) -> None:
    response.delete_cookie(PRACTICE_COOKIE, samesite="Lax")
