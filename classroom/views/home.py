from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.shortcuts import render

from classroom.selectors.classes import class_list
from classroom.selectors.sessions import session_list

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse


def home(request: HttpRequest) -> HttpResponse:
    if not isinstance(request.user, User):
        return render(request, "classroom/welcome.html")
    context = {
        "classes": class_list(teacher=request.user),
        "sessions": session_list(teacher=request.user)[:12],
    }
    return render(request, "classroom/home.html", context)
