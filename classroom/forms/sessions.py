from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from classroom.gamesite.labels import game_choices, language_help, palette_help
from classroom.models import GameSession, SchoolClass
from classroom.selectors.classes import classes_visible
from games.registry import game_registry

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class ClassChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """The classes a teacher may run sessions for; a colleague's names its owner (two
    teachers' classes may have the same name)."""

    teacher_id: int | None = None

    def label_from_instance(self, obj: SchoolClass) -> str:
        if obj.teacher_id == self.teacher_id:
            return obj.name
        return _("%(name)s (shared by %(owner)s)") % {
            "name": obj.name,
            "owner": obj.teacher.get_username(),
        }


class SessionForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), choices=game_choices)
    school_class = ClassChoiceField(
        label=_("Class"),
        queryset=SchoolClass.objects.none(),
        required=False,
        empty_label=_("Guests (students type a nickname)"),
    )
    players_per_table = forms.IntegerField(label=_("Players per table"), min_value=2, max_value=8)
    # Not required: a form posted without them (a page loaded before a deploy) plays with the
    # defaults.
    palette = forms.ChoiceField(
        label=_("Colours"),
        choices=GameSession.Palette.choices,
        required=False,
        help_text=lazy(palette_help, str)(),
    )
    language = forms.ChoiceField(
        label=_("Colour words in"),
        choices=(),  # set per form: each language named in itself
        required=False,
        help_text=lazy(language_help, str)(),
    )
    # Class controls. Not required either: a form posted without them keeps the defaults.
    leaderboard = forms.ChoiceField(
        label=_("Show the leaderboard"),
        choices=GameSession.Leaderboard.choices,
        required=False,
        help_text=_("When tablets and the projector show points, ranks and winners."),
    )
    scoring = forms.ChoiceField(
        label=_("Scoring"),
        choices=[
            ("on", _("Points and winners")),
            ("off", _("Accuracy only: no points, ranks or winners")),
        ],
        required=False,
    )
    late_join = forms.ChoiceField(
        label=_("Latecomers"),
        choices=[
            ("on", _("Students may join after the start")),
            ("off", _("No new students once the game has started")),
        ],
        required=False,
        help_text=_("Students already seated can always reconnect."),
    )
    adaptive = forms.BooleanField(
        label=_("Adaptive difficulty"),
        required=False,
        help_text=_("Each table's level follows how well its players do."),
    )
    warmup = forms.BooleanField(
        label=_("Warm-up: 20 taps first"),
        required=False,
        help_text=_(
            "While the lobby waits, each tablet asks for 20 taps when a card appears: the "
            "child's tapping speed on that tablet, so reports can show the decision time. "
            "A child who arrives after the start goes straight to the game."
        ),
    )

    def __init__(self, *args: Any, teacher: User, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = game_registry()
        class_field = self.fields["school_class"]
        assert isinstance(class_field, ClassChoiceField)
        class_field.queryset = classes_visible(teacher=teacher).select_related("teacher")
        class_field.teacher_id = teacher.pk
        first = next(iter(games.values()))
        self.fields["players_per_table"].initial = first.default_players
        self.fields["palette"].initial = GameSession.Palette.STANDARD
        language_field = self.fields["language"]
        assert isinstance(language_field, forms.ChoiceField)
        # Each language named in itself: the teacher picks the one the children read.
        language_field.choices = [
            (code, translation.get_language_info(code)["name_local"])
            for code, _name in settings.LANGUAGES
        ]
        language_field.initial = _current_language()

    def clean_leaderboard(self) -> str:
        return str(self.cleaned_data.get("leaderboard") or GameSession.Leaderboard.ALWAYS)

    def clean_scoring(self) -> bool:
        return self.cleaned_data.get("scoring") != "off"

    def clean_late_join(self) -> bool:
        return self.cleaned_data.get("late_join") != "off"

    def clean_palette(self) -> str:
        return str(self.cleaned_data.get("palette") or GameSession.Palette.STANDARD)

    def clean_language(self) -> str:
        return str(self.cleaned_data.get("language") or _current_language())


def _current_language() -> str:
    """The teacher's page language, as one of settings.LANGUAGES (the game's default)."""
    codes = [code for code, _name in settings.LANGUAGES]
    current = translation.get_language() or settings.LANGUAGE_CODE
    return current if current in codes else settings.LANGUAGE_CODE
