"""Sharing a class with colleagues from its page: share by username or e-mail, revoke.

Only the class's owner reaches these (a colleague or anyone else gets 404). With htmx the
answer is the "Shared with" card, swapped in place; without it, back to the class page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classroom.forms.class_shares import ClassShareForm
from classroom.models import ClassShare
from classroom.selectors.classes import ClassRight, class_shares
from classroom.services.class_shares import class_share_grant
from classroom.services.class_shares import class_share_revoke as class_share_revoke_service
from classroom.views.access import class_or_404
from classroom.web.rate_limits import class_share_attempt_allowed

if TYPE_CHECKING:
    from django.http import HttpResponse

    from classroom.models import SchoolClass
    from classroom.views.http import TeacherRequest

CARD = "classroom/_class_shares.html"


def _answer(
    request: TeacherRequest, school_class: SchoolClass, form: ClassShareForm, notice: str = ""
) -> HttpResponse:
    if request.htmx:
        # Problems answer 200 too: htmx swaps no 4xx answer, and the teacher must see them.
        context = {
            "school_class": school_class,
            "shares": class_shares(school_class=school_class),
            "share_form": form,
            "notice": notice,
        }
        return render(request, CARD, context)
    for problems in form.errors.values():
        for problem in problems:
            messages.error(request, str(problem))
    if notice:
        messages.success(request, notice)
    return redirect("class_detail", class_id=school_class.pk)


@login_required
@require_POST
def class_share_add(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id, ClassRight.OWN)
    form = ClassShareForm(request.POST)
    if not form.is_valid():
        return _answer(request, school_class, form)
    if not class_share_attempt_allowed(request):
        # A look-up tells whether an account exists, as a sign-up does: limited alike.
        form.add_error(None, _("Too many tries from here. Please try again in an hour."))
        return _answer(request, school_class, form)
    try:
        share = class_share_grant(
            school_class=school_class,
            by=request.user,
            colleague=form.cleaned_data["colleague"],
            role=form.cleaned_data["role"],
        )
    except ValidationError as refused:
        form.add_error(None, refused)
        return _answer(request, school_class, form)
    notice = _("%(class)s is now shared with %(name)s (%(role)s).") % {
        "class": school_class.name,
        "name": share.teacher.get_username(),
        "role": share.get_role_display(),
    }
    return _answer(request, school_class, ClassShareForm(), notice)


@login_required
@require_POST
def class_share_revoke(request: TeacherRequest, class_id: int, share_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id, ClassRight.OWN)
    share = get_object_or_404(
        ClassShare.objects.select_related("teacher"), pk=share_id, school_class=school_class
    )
    name = share.teacher.get_username()
    class_share_revoke_service(share=share, by=request.user)
    notice = _("%(name)s no longer has access to %(class)s.") % {
        "name": name,
        "class": school_class.name,
    }
    return _answer(request, school_class, ClassShareForm(), notice)
