from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)


class TeacherLoginForm(AuthenticationForm):
    """Django's; an e-mail address as the username is read in lower case, as invitations and
    mailed sign-ups store it (``classroom.services.invitations``)."""

    def clean_username(self) -> str:
        username = str(self.cleaned_data.get("username", ""))
        return username.lower() if "@" in username else username


class EmailSignupForm(forms.Form):
    """SIGNUP=domain: only the address; the link mailed there asks for a password."""

    email = forms.EmailField(
        label=_("School e-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )


class InvitationForm(forms.Form):
    email = forms.EmailField(
        label=_("Teacher's e-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )


class TeacherPasswordResetForm(PasswordResetForm):
    """Django's reset form; its mail is the site's own (``registration/mail/password_reset``),
    the same one a school admin's reset sends."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        path = reverse("password_reset_confirm", args=[context["uid"], context["token"]])
        context["link"] = f"{context['protocol']}://{context['domain']}{path}"
        context["username"] = context["user"].get_username()
        super().send_mail(
            subject_template_name,
            email_template_name,
            context,
            from_email,
            to_email,
            html_email_template_name,
        )
