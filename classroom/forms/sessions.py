from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

from classroom.models import SchoolClass
from games.core import game_registry

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


class SessionForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"))
    school_class = forms.ModelChoiceField(
        label=_("Class"),
        queryset=SchoolClass.objects.none(),
        required=False,
        empty_label=_("Guests (students type a nickname)"),
    )
    players_per_table = forms.IntegerField(label=_("Players per table"), min_value=2, max_value=8)

    def __init__(
        self, *args: Any, teacher: AbstractBaseUser | AnonymousUser, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        games = game_registry()
        self.fields["game"].choices = [
            (slug, gettext_now(spec.name)) for slug, spec in games.items()
        ]
        self.fields["school_class"].queryset = SchoolClass.objects.filter(teacher=teacher)  # type: ignore[attr-defined]
        first = next(iter(games.values()))
        self.fields["players_per_table"].initial = first.default_players
