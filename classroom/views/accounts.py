from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView, PasswordChangeView
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from classroom.forms.accounts import SignupForm
from classroom.web.rate_limits import (
    login_attempt_allowed,
    login_failure_count,
    login_success_remember,
    signup_attempt_allowed,
)

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse


class RateLimitedLoginView(LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not login_attempt_allowed(request):
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, _("Too many attempts. Please wait a minute and try again."))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        login_success_remember(self.request)
        return super().form_valid(form)

    def form_invalid(self, form: Any) -> HttpResponse:
        # Only a failure counts: a teacher who signs in right is never slowed.
        login_failure_count(self.request)
        return super().form_invalid(form)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if settings.SIGNUP != "open":
        # Invitations and the school's domains (SIGNUP=invite, domain) are still to come: until
        # then anything but "open" makes no account here.
        status = 403 if request.method == "POST" else 200
        return render(request, "registration/signup.html", {"closed": True}, status=status)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and not signup_attempt_allowed(request):
        form.errors.clear()
        form.add_error(None, _("Too many sign-ups from here. Please try again in an hour."))
        return render(request, "registration/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user)
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class TeacherPasswordChangeView(PasswordChangeView):
    """Django's own (old password, new one twice, the site's validators), in the site's look;
    other sessions of this teacher end, this one stays signed in."""

    template_name = "registration/password_change.html"
    success_url = reverse_lazy("home")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, _("Your password has been changed."))
        return response
