"""A school admin's pages: the school's teachers (invite, disable, re-enable, send a password
reset) and the audit log of those actions. Anyone else gets 404: the pages say nothing of
who is an admin. The role shows accounts only, never a class's children or results."""

from __future__ import annotations

from functools import wraps
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from classroom.forms.accounts import InvitationForm
from classroom.selectors.teachers import (
    account_audit_list,
    invitations_open,
    school_admin_is,
    teachers_list,
)
from classroom.services.invitations import invitation_create
from classroom.services.teacher_accounts import (
    teacher_disable,
    teacher_enable,
    teacher_password_reset_send,
)
from classroom.views.http import site_url

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.http import HttpResponse

    from classroom.views.http import TeacherRequest

    View = Callable[..., HttpResponse]


def school_admin_required(view: View) -> View:
    @wraps(view)
    def checked(request: TeacherRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not school_admin_is(user=request.user):
            raise Http404
        return view(request, *args, **kwargs)

    return login_required(checked)


def _teachers_page(
    request: TeacherRequest, form: InvitationForm, *, status: int = 200
) -> HttpResponse:
    context = {
        "teachers": teachers_list(),
        "invitations": invitations_open(now=timezone.now()),
        "form": form,
    }
    return render(request, "school/teachers.html", context, status=status)


@require_GET
@school_admin_required
def school_teachers(request: TeacherRequest) -> HttpResponse:
    return _teachers_page(request, InvitationForm())


@require_POST
@school_admin_required
def school_invite(request: TeacherRequest) -> HttpResponse:
    form = InvitationForm(request.POST)
    if not form.is_valid():
        return _teachers_page(request, form, status=400)
    try:
        sent = invitation_create(
            by=request.user,
            email=form.cleaned_data["email"],
            site_url=site_url(request),
            now=timezone.now(),
        )
    except ValidationError as error:
        form.add_error(None, error)
        return _teachers_page(request, form, status=400)
    messages.success(
        request,
        _(
            "Invitation sent to %(email)s. If it does not arrive, give them this link (it works "
            "once): %(link)s"
        )
        % {"email": sent.invitation.email, "link": sent.link},
    )
    return redirect("school_teachers")


ACTIONS = {
    "disable": gettext_lazy(
        "%(name)s is disabled: signed out everywhere, and their open pages closed."
    ),
    "enable": gettext_lazy("%(name)s can sign in again."),
    "reset": gettext_lazy("A password reset was sent to %(name)s."),
}


@require_POST
@school_admin_required
def school_teacher_action(request: TeacherRequest, user_id: int, action: str) -> HttpResponse:
    teacher = get_object_or_404(User, pk=user_id)
    now = timezone.now()
    try:
        if action == "disable":
            teacher_disable(by=request.user, teacher=teacher, now=now)
        elif action == "enable":
            teacher_enable(by=request.user, teacher=teacher, now=now)
        elif action == "reset":
            teacher_password_reset_send(
                by=request.user, teacher=teacher, site_url=site_url(request), now=now
            )
        else:
            raise Http404
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, ACTIONS[action] % {"name": teacher.get_username()})
    return redirect("school_teachers")


@require_GET
@school_admin_required
def school_audit(request: TeacherRequest) -> HttpResponse:
    return render(request, "school/audit.html", {"entries": account_audit_list()})
