"""Asking for a report for home: the period it looks back over and the language it is
written in (the teacher's choice; the class's language first)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from classroom.reports.home import DEFAULT_PERIOD, PERIODS


class HomeReportForm(forms.Form):
    period = forms.ChoiceField(
        label=_("Period"),
        choices=[(key, label) for key, (_days, label) in PERIODS.items()],
        initial=DEFAULT_PERIOD,
    )
    language = forms.ChoiceField(label=_("Written in"), choices=settings.LANGUAGES)
