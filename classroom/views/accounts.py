from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import User
from django.contrib.auth.views import (
    LoginView,
    PasswordChangeView,
    PasswordResetCompleteView,
    PasswordResetConfirmView,
    PasswordResetDoneView,
    PasswordResetView,
)
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from classroom.forms.accounts import (
    EmailSignupForm,
    SignupForm,
    TeacherLoginForm,
    TeacherPasswordResetForm,
)
from classroom.services.invitations import invitation_accept, invitation_find
from classroom.services.signup_links import (
    signup_email_clean,
    signup_link_complete,
    signup_link_read,
    signup_link_send,
)
from classroom.views.http import site_url
from classroom.web.rate_limits import (
    login_attempt_allowed,
    login_failure_count,
    login_success_remember,
    password_reset_attempt_allowed,
    signup_attempt_allowed,
)

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse
    from django.views.generic.edit import FormView


def _over_limit(view: FormView[Any], problem: str) -> HttpResponse:
    """The form again, unchecked, saying only why it was not tried (429)."""
    form = view.get_form()
    form.errors.clear()
    form.add_error(None, problem)
    return view.render_to_response(view.get_context_data(form=form), status=429)


class RateLimitedLoginView(LoginView):
    form_class = TeacherLoginForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not login_attempt_allowed(request):
            return _over_limit(self, _("Too many attempts. Please wait a minute and try again."))
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        login_success_remember(self.request)
        return super().form_valid(form)

    def form_invalid(self, form: Any) -> HttpResponse:
        # Only a failure counts: a teacher who signs in right is never slowed.
        login_failure_count(self.request)
        return super().form_invalid(form)


def _signup_page(
    request: HttpRequest, context: dict[str, Any], *, status: int = 200
) -> HttpResponse:
    context = {"policy": settings.SIGNUP, "domains": settings.SIGNUP_DOMAINS, **context}
    return render(request, "registration/signup.html", context, status=status)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """The sign-up page of the site's policy (settings.SIGNUP): open makes an account at once;
    invite says to ask for an invitation; domain mails the address a link."""
    if request.user.is_authenticated:
        return redirect("home")
    if settings.SIGNUP == "invite":
        # Accounts come only through an invitation's own link (``invitation_accept``).
        return _signup_page(request, {}, status=403 if request.method == "POST" else 200)
    form: SignupForm | EmailSignupForm = (
        EmailSignupForm(request.POST or None)
        if settings.SIGNUP == "domain"
        else SignupForm(request.POST or None)
    )
    if request.method == "POST" and not signup_attempt_allowed(request):
        form.errors.clear()
        form.add_error(None, _("Too many sign-ups from here. Please try again in an hour."))
        return _signup_page(request, {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        if isinstance(form, EmailSignupForm):
            return _signup_by_email(request, form)
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return _signup_page(request, {"form": form})


def _signup_by_email(request: HttpRequest, form: EmailSignupForm) -> HttpResponse:
    try:
        email = signup_email_clean(email=form.cleaned_data["email"])
    except ValidationError as error:
        form.add_error(None, error)
        return _signup_page(request, {"form": form})
    signup_link_send(email=email, site_url=site_url(request))
    # The same answer whether or not the address has an account: only its mail says which.
    return redirect("signup_sent")


def signup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "registration/signup_sent.html")


def _password_page(
    request: HttpRequest, *, email: str, form: SetPasswordForm[User] | None, title: str
) -> HttpResponse:
    return render(
        request,
        "registration/signup_password.html",
        {"email": email, "form": form, "title": title},
        status=200 if form is not None else 404,
    )


@require_http_methods(["GET", "POST"])
def signup_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to a school address: the address is proven, a password makes the
    account, and the link stops working."""
    title = _("Finish signing up")
    email = signup_link_read(token=token)
    if email is None:
        return _password_page(request, email="", form=None, title=title)
    form = SetPasswordForm(User(username=email, email=email), request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = signup_link_complete(token=token, password=form.cleaned_data["new_password1"])
        except ValidationError:
            return _password_page(request, email="", form=None, title=title)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return _password_page(request, email=email, form=form, title=title)


@require_http_methods(["GET", "POST"])
def invitation_accept_page(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation's link: a password makes the invited address's account, once."""
    title = _("Accept your invitation")
    if request.user.is_authenticated:
        return redirect("home")
    invitation = invitation_find(token=token, now=timezone.now())
    if invitation is None:
        return _password_page(request, email="", form=None, title=title)
    email = invitation.email
    form = SetPasswordForm(User(username=email, email=email), request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = invitation_accept(
                token=token, password=form.cleaned_data["new_password1"], now=timezone.now()
            )
        except ValidationError as error:
            form.add_error(None, error)
            return _password_page(request, email=email, form=form, title=title)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return _password_page(request, email=email, form=form, title=title)


class TeacherPasswordResetView(PasswordResetView):
    """Django's: the same answer whether or not an account has the address; counted in a
    limit per client address, so the form mails nobody over and over."""

    form_class = TeacherPasswordResetForm
    template_name = "registration/password_reset_form.html"
    email_template_name = "registration/mail/password_reset.txt"
    subject_template_name = "registration/mail/password_reset_subject.txt"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not password_reset_attempt_allowed(request):
            return _over_limit(self, _("Too many tries from here. Please try again in an hour."))
        return super().post(request, *args, **kwargs)


class TeacherPasswordResetDoneView(PasswordResetDoneView):
    template_name = "registration/password_reset_done.html"


class TeacherPasswordResetConfirmView(PasswordResetConfirmView):
    template_name = "registration/password_reset_confirm.html"


class TeacherPasswordResetCompleteView(PasswordResetCompleteView):
    template_name = "registration/password_reset_complete.html"


class TeacherPasswordChangeView(PasswordChangeView):
    """Django's own (old password, new one twice, the site's validators), in the site's look;
    other sessions of this teacher end, this one stays signed in."""

    template_name = "registration/password_change.html"
    success_url = reverse_lazy("home")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, _("Your password has been changed."))
        return response
