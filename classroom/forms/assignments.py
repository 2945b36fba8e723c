"""The teacher's "set practice" form: a game, a band of levels, an amount, a due date."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.gamesite.labels import game_choices
from classroom.gamesite.ladder_labels import rung_choices
from classroom.models import Assignment, Student
from games.registry import game_registry

if TYPE_CHECKING:
    from classroom.models import SchoolClass


class AssignmentForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    student = forms.ModelChoiceField(
        label=_("For"),
        queryset=Student.objects.none(),
        required=False,
        empty_label=_("The whole class"),
    )
    rung_min = forms.TypedChoiceField(label=_("Easiest level"), coerce=int)
    rung_max = forms.TypedChoiceField(label=_("Hardest level"), coerce=int)
    goal = forms.IntegerField(label=_("How much"), min_value=1, max_value=120, initial=10)
    goal_kind = forms.ChoiceField(
        label=_("Counted in"), choices=Assignment.Goal.choices, initial=Assignment.Goal.MINUTES
    )
    due_on = forms.DateField(
        label=_("Due"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, school_class: SchoolClass, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = game_registry()
        student_field = self.fields["student"]
        assert isinstance(student_field, forms.ModelChoiceField)
        student_field.queryset = school_class.students.all()
        # Rungs of the chosen game (the page swaps these when the game changes).
        game = self.data.get("game") or self.initial.get("game") or next(iter(games))
        choices = rung_choices(game=game if game in games else next(iter(games)))
        for name in ("rung_min", "rung_max"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = choices
        self.fields["rung_min"].initial = 0
        self.fields["rung_max"].initial = len(choices) - 1


class PracticeCodeOpenForm(forms.Form):
    """How long children may sign in with the class's practice code."""

    open_for = forms.ChoiceField(
        label=_("Open for"),
        choices=[("hour", _("One hour")), ("day", _("Until the end of the school day"))],
        initial="hour",
        widget=forms.RadioSelect,
        required=False,  # nothing chosen: the default hour
    )
    school_day_ends = forms.TimeField(
        label=_("The school day ends at"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )

    def clean_open_for(self) -> str:
        return str(self.cleaned_data.get("open_for") or "hour")
