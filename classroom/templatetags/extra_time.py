"""Template helpers for extra time (classroom.people.extra_time): the class page's choice and
the reports' badge and note."""

from __future__ import annotations

from django import template

from classroom.models import Student
from classroom.people.extra_time import extra_time_badge, extra_time_report_note

register = template.Library()


@register.simple_tag
def extra_time_choices() -> list[tuple[str, str]]:
    """``{% extra_time_choices as choices %}``: a child's extra-time choices, none first."""
    return [(str(value), str(label)) for value, label in Student.ExtraTime.choices]


@register.filter
def extra_time_mark(mark: str) -> str:
    """``{{ mark|extra_time_mark }}``: a trial's extra-time mark as its report badge says it."""
    return extra_time_badge(mark)


@register.simple_tag
def extra_time_note() -> str:
    """``{% extra_time_note %}``: beside results played with extra time."""
    return extra_time_report_note()
