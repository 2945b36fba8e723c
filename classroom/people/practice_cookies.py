"""Which practice sign-in a tablet holds: a signed, HttpOnly cookie with the sign-in's own
token (``PracticeSignIn.token``), never the student's badge token, so reading the cookie
gives nobody the badge. Whether it still lets the tablet in is checked on every request
(classroom.selectors.practice_access)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings

from classroom.selectors.practice_access import SignInCheck, practice_sign_in_check

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from classroom.models import PracticeSignIn

PRACTICE_COOKIE = "practice_student"
# Its own salt: a cookie signed for anything else (a badge token) is never read as a sign-in.
_SALT = "snapclass.practice.sign-in"


def practice_sign_in_set(response: HttpResponse, *, sign_in: PracticeSignIn) -> None:
    response.set_signed_cookie(
        PRACTICE_COOKIE,
        sign_in.token,
        salt=_SALT,
        max_age=settings.SEAT_COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )


def practice_sign_in_get(request: HttpRequest) -> SignInCheck:
    token = request.get_signed_cookie(PRACTICE_COOKIE, default="", salt=_SALT)
    return practice_sign_in_check(token=token or "")


def practice_sign_in_forget(response: HttpResponse) -> None:
    response.delete_cookie(PRACTICE_COOKIE, samesite="Lax")
