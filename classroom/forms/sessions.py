from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

from classroom.models import SchoolClass
from games.core import game_registry

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class SessionForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"))
    school_class = forms.ModelChoiceField(
        label=_("Class"),
        queryset=SchoolClass.objects.none(),
        required=False,
        empty_label=_("Guests (students type a nickname)"),
    )
    players_per_table = forms.IntegerField(label=_("Players per table"), min_value=2, max_value=8)

    def __init__(self, *args: Any, teacher: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = game_registry()
        game_field = self.fields["game"]
        assert isinstance(game_field, forms.ChoiceField)
        game_field.choices = [(slug, gettext_now(spec.name)) for slug, spec in games.items()]
        class_field = self.fields["school_class"]
        assert isinstance(class_field, forms.ModelChoiceField)
        class_field.queryset = SchoolClass.objects.filter(teacher=teacher)
        first = next(iter(games.values()))
        self.fields["players_per_table"].initial = first.default_players
