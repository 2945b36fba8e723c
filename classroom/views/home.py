from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.shortcuts import render
from django.utils import timezone

from classroom.selectors.classes import class_list
from classroom.selectors.sessions import session_lines_by_class
from classroom.selectors.teachers import school_admin_is
from classroom.services.sessions import sessions_idle_end
from classroom.web.compression import uncompressed_response

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse


def home(request: HttpRequest) -> HttpResponse:
    if not isinstance(request.user, User):
        return render(request, "classroom/welcome.html")
    # The idle watcher runs where sockets are open; after a restart with none, the home
    # page ends the teacher's forgotten sessions before it lists them.
    sessions_idle_end(now=timezone.now(), teacher=request.user)
    context = {
        "classes": class_list(teacher=request.user),
        "session_groups": session_lines_by_class(teacher=request.user),
        "school_admin": school_admin_is(user=request.user),
    }
    # The class list shows the live sessions' join codes.
    return uncompressed_response(render(request, "classroom/home.html", context))
