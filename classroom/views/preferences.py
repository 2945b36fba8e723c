"""The teacher's settings page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from classroom.forms.preferences import PreferencesForm
from classroom.selectors.preferences import preferences_get
from classroom.services.preferences import preferences_update

if TYPE_CHECKING:
    from django.http import HttpResponse

    from classroom.views.http import TeacherRequest


@login_required
@require_http_methods(["GET", "POST"])
def teacher_settings(request: TeacherRequest) -> HttpResponse:
    preferences = preferences_get(teacher=request.user)
    form = PreferencesForm(
        request.POST or None, initial={"nickname_blocklist": preferences.nickname_blocklist}
    )
    if request.method == "POST" and form.is_valid():
        preferences_update(
            teacher=request.user, nickname_blocklist=form.cleaned_data["nickname_blocklist"]
        )
        messages.success(request, _("Settings saved."))
        return redirect("teacher_settings")
    return render(request, "classroom/teacher_settings.html", {"form": form})
