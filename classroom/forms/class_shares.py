from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.models import ClassShare
from classroom.selectors.classes import ACCOUNT_NAME_MAX


class ClassShareForm(forms.Form):
    """Share a class: the colleague's account and their role (checked by the service)."""

    colleague = forms.CharField(
        label=_("Colleague's username or e-mail"),
        max_length=ACCOUNT_NAME_MAX,
        error_messages={"required": _("Enter your colleague's username or e-mail address.")},
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    role = forms.ChoiceField(
        label=_("Role"),
        choices=ClassShare.Role.choices,
        initial=ClassShare.Role.CO_TEACHER,
        error_messages={"invalid_choice": _("Choose co-teacher or substitute.")},
    )
