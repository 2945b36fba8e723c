from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.join_codes import join_code_normalize


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Session code"),
        max_length=20,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "inputmode": "text",
                "placeholder": "ABC234",
            }
        ),
    )

    def clean_code(self) -> str:
        return join_code_normalize(self.cleaned_data["code"])


class NicknameForm(forms.Form):
    # Length and characters are checked by the seat service, which gives friendlier messages.
    nickname = forms.CharField(
        label=_("Your name"),
        max_length=200,
        strip=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
