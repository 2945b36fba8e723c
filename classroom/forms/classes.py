from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from classroom.services.classes import CLASS_NAME_MAX, student_names_parse


class ClassForm(forms.Form):
    name = forms.CharField(label=_("Class name"), max_length=CLASS_NAME_MAX)
    student_names = forms.CharField(
        label=_("Student names"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        help_text=_("One name per line: first names or nicknames only."),
    )

    def __init__(self, *args: Any, adding: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if adding:
            self.fields["student_names"].help_text = _(
                "Add more students, one name per line. Names already in the class stay."
            )

    def clean_student_names(self) -> list[str]:
        text = self.cleaned_data.get("student_names", "")
        try:
            return student_names_parse(text)
        except ValidationError as error:
            raise ValidationError(error.messages) from error


class RosterFileForm(forms.Form):
    file = forms.FileField(
        label=_("Class list file (CSV)"),
        help_text=_(
            "One column of names, a OneRoster users.csv, or your school system's export with "
            "first and last names. Only first names are kept; a last name's initial tells two "
            "children with the same first name apart."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv,text/plain"}),
    )
