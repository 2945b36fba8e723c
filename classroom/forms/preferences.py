from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from classroom.services.preferences import nickname_blocklist_clean


class PreferencesForm(forms.Form):
    nickname_blocklist = forms.CharField(
        label=_("Words not allowed in nicknames"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        help_text=_(
            "One word per line. Guests cannot join with a nickname that contains one of them "
            "(capitals, spaces and punctuation do not help). A short list of rude words in "
            "English and Chinese is always on."
        ),
    )

    def clean_nickname_blocklist(self) -> str:
        try:
            return nickname_blocklist_clean(self.cleaned_data.get("nickname_blocklist", ""))
        except ValidationError as error:
            raise ValidationError(error.messages) from error
