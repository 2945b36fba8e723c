from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classroom.forms.game_settings import GameSettingsForm, game_settings_form_class
from classroom.forms.sessions import SessionForm
from classroom.forms.whole_numbers import whole_number_parse
from classroom.gamesite import game_site_get
from classroom.gamesite.labels import watch_scene
from classroom.gamesite.pace import game_length_ms, game_length_words
from classroom.hosting import table_hosts
from classroom.models import GameSession, Seat
from classroom.pages import fragments
from classroom.selectors.classes import ClassRight
from classroom.selectors.sessions import session_deletable_by, session_last, session_table_ids
from classroom.selectors.standings import leaderboard_action
from classroom.services import seats as seat_services
from classroom.services import sessions as session_services
from classroom.views.access import session_or_404
from classroom.views.how_to_play import how_to_play_for_teacher
from classroom.web.compression import uncompressed
from games.registry import game_get, game_registry

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.http import QueryDict

    from classroom.views.http import TeacherRequest
    from games.engine.spec import GameSpec

SETTINGS_PREFIX = "settings"


def _settings_form(
    spec: GameSpec, data: QueryDict | None = None, initial: dict[str, Any] | None = None
) -> GameSettingsForm:
    return game_settings_form_class(spec)(data, prefix=SETTINGS_PREFIX, initial=initial)


def _chosen_spec(request: TeacherRequest, default: str = "") -> GameSpec:
    slug = request.POST.get("game") or request.GET.get("game") or default
    return game_get(slug) or next(iter(game_registry().values()))


def _last_choices(last: GameSession | None) -> dict[str, Any]:
    """The new-session form's starting values: the teacher's last session's choices."""
    if last is None:
        return {}
    return {
        "game": last.game,
        "school_class": last.school_class_id,
        "players_per_table": last.players_per_table,
        "palette": last.palette,
        "language": last.language,
        "leaderboard": last.leaderboard,
        "scoring": "on" if last.scoring else "off",
        "late_join": "on" if last.late_join else "off",
        "adaptive": last.adaptive,
        "warmup": last.warmup,
    }


@login_required
@require_http_methods(["GET", "POST"])
def session_new(request: TeacherRequest) -> HttpResponse:
    last = session_last(teacher=request.user) if request.method == "GET" else None
    spec = _chosen_spec(request, default=last.game if last is not None else "")
    data = request.POST if request.method == "POST" else None
    initial = _last_choices(last)
    if request.GET.get("class"):
        initial["school_class"] = request.GET.get("class")
    form = SessionForm(data, teacher=request.user, initial=initial or None)
    last_settings = last.settings if last is not None and last.game == spec.slug else None
    settings_form = _settings_form(spec, data, initial=last_settings)
    if request.method == "POST" and form.is_valid() and settings_form.is_valid():
        try:
            session = session_services.session_create(
                teacher=request.user,
                leaderboard=form.cleaned_data["leaderboard"],
                scoring=form.cleaned_data["scoring"],
                late_join=form.cleaned_data["late_join"],
                adaptive=form.cleaned_data["adaptive"],
                warmup=form.cleaned_data["warmup"],
                game=form.cleaned_data["game"],
                school_class=form.cleaned_data["school_class"],
                players_per_table=form.cleaned_data["players_per_table"],
                palette=form.cleaned_data["palette"],
                language=form.cleaned_data["language"],
                settings={
                    name: value
                    for name, value in settings_form.cleaned_data.items()
                    if name in settings_form.fields
                },
            )
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                target = form if field in form.fields else settings_form
                target.add_error(field if field in target.fields else None, problems)
        else:
            return redirect("session_console", session_id=session.pk)
    return render(
        request,
        "classroom/session_form.html",
        {
            "form": form,
            "settings_form": settings_form,
            "spec": spec,
            "site": game_site_get(spec.slug),
        },
    )


def _game_length(spec: GameSpec, settings_form: GameSettingsForm, players: str) -> str:
    """How long one game lasts with the form's settings, in words (or why it cannot say)."""
    if not settings_form.is_valid():
        return _("Fix the settings above to see how long a game lasts.")
    try:
        count = int(players)
    except ValueError:
        count = spec.default_players
    return game_length_words(game_length_ms(spec=spec, config=settings_form.config, players=count))


@login_required
@require_GET
def session_length(request: TeacherRequest) -> HttpResponse:
    """The length of one game with the settings the form holds now (htmx swaps it in)."""
    spec = _chosen_spec(request)
    settings_form = _settings_form(spec, request.GET)
    length = _game_length(spec, settings_form, request.GET.get("players_per_table", ""))
    return render(request, "classroom/session_form.html#length-text", {"game_length": length})


@login_required
def session_settings_fields(request: TeacherRequest) -> HttpResponse:
    """The settings fieldset for the game just chosen (htmx swaps it in)."""
    spec = _chosen_spec(request)
    return render(
        request,
        "classroom/session_form.html#settings",
        {
            "settings_form": _settings_form(spec),
            "spec": spec,
            "site": game_site_get(spec.slug),
        },
    )


def _watch_context(session: GameSession) -> dict[str, Any]:
    """What the page needs to draw its game's tables live (nothing for a game not drawn)."""
    site = game_site_get(session.game)
    template = site.watch_template if site is not None else ""
    return {
        "watch_scene": watch_scene(session.game),
        "watch_assets": f"{template}#assets" if template else "",
    }


def _live_page(
    request: TeacherRequest,
    session_id: int,
    page_context: Callable[..., dict[str, Any]],
) -> tuple[GameSession, dict[str, Any]]:
    """The teacher's session and what a live page of it draws first: its tables as hosted
    now (``page_context(session=, views=)``) and its game's watch scene."""
    session = session_or_404(request, session_id)
    views = table_hosts.registry.teacher_views(session_table_ids(session_id=session.pk))
    context = page_context(session=session, views=views)
    context.update(_watch_context(session))
    return session, context


@login_required
@uncompressed
def session_console(request: TeacherRequest, session_id: int) -> HttpResponse:
    session, context = _live_page(request, session_id, fragments.console_context)
    context["may_delete"] = session_deletable_by(session=session, teacher=request.user)
    site = game_site_get(session.game)
    context["colour_words"] = site is not None and site.colour_words
    context["how_to_play"] = how_to_play_for_teacher(session=session, where="console")
    return render(request, "classroom/session_console.html", context)


@login_required
@uncompressed
def session_projector(request: TeacherRequest, session_id: int) -> HttpResponse:
    session, context = _live_page(request, session_id, fragments.projector_context)
    context["join_url"] = join_url = request.build_absolute_uri(
        reverse("join_session", args=[session.code])
    )
    # Shown in two pieces that may break apart between them (never inside the code), so a
    # long address wraps as ".../join/" over "CODE/" on the projector.
    context["join_url_parts"] = join_url.removesuffix(f"{session.code}/"), f"{session.code}/"
    context["how_to_play"] = how_to_play_for_teacher(session=session, where="projector")
    return render(request, "classroom/projector.html", context)


def _lock(session: GameSession) -> GameSession:
    return session_services.session_lock(session=session, locked=True)


def _unlock(session: GameSession) -> GameSession:
    return session_services.session_lock(session=session, locked=False)


def _controls(**changes: Any) -> Callable[[GameSession], GameSession]:
    return lambda session: session_services.session_controls_update(session=session, **changes)


# The class controls, one click each (no form data): "leaderboard-end", "scoring-off" …
CONTROL_ACTIONS: dict[str, Callable[[GameSession], GameSession]] = {
    **{
        leaderboard_action(value): _controls(leaderboard=value)
        for value in GameSession.Leaderboard.values
    },
    "scoring-on": _controls(scoring=True),
    "scoring-off": _controls(scoring=False),
    "late-join-on": _controls(late_join=True),
    "late-join-off": _controls(late_join=False),
    "sound-on": _controls(sound=True),
    "sound-off": _controls(sound=False),
}

SESSION_ACTIONS: dict[str, Callable[[GameSession], GameSession]] = {
    "start": lambda session: session_services.session_start(session=session),
    "pause": lambda session: session_services.session_pause(session=session),
    "resume": lambda session: session_services.session_resume(session=session),
    "end": lambda session: session_services.session_end(session=session),
    "lock": _lock,
    "unlock": _unlock,
    "rebalance": lambda session: session_services.session_rebalance(session=session),
    "play-again": lambda session: session_services.session_play_again(session=session),
    **CONTROL_ACTIONS,
}


def _console_after_action(
    request: TeacherRequest, session: GameSession, error: ValidationError | None
) -> HttpResponse:
    if request.htmx:
        session.refresh_from_db()
        # The tables as they play now, as the page's socket draws them: without them every
        # tile said "Waiting for the first tablet to connect" until the socket's next frame.
        views = table_hosts.registry.teacher_views(session_table_ids(session_id=session.pk))
        context = fragments.console_context(session=session, views=views)
        context["action_error"] = " ".join(error.messages) if error else ""
        return render(request, "classroom/session_console.html#live", context)
    if error:
        messages.error(request, " ".join(error.messages))
    return redirect("session_console", session_id=session.pk)


def _dashboard_after_action(request: TeacherRequest, session: GameSession) -> HttpResponse:
    if request.htmx:
        context = {"session": session, **fragments.dashboard_context(session=session)}
        return render(request, "classroom/session_console.html#dashboard", context)
    return redirect("session_console", session_id=session.pk)


@login_required
@require_POST
def session_action(request: TeacherRequest, session_id: int, action: str) -> HttpResponse:
    session = session_or_404(request, session_id)
    perform = SESSION_ACTIONS.get(action)
    if perform is None:
        raise Http404
    try:
        perform(session)
    except ValidationError as error:
        return _console_after_action(request, session, error)
    return _console_after_action(request, session, None)


@login_required
@require_POST
def session_play_again(request: TeacherRequest, session_id: int) -> HttpResponse:
    """Play again with changed settings (the console's settings form); the plain button
    with the same settings is the "play-again" action."""
    session = session_or_404(request, session_id)
    spec = game_get(session.game)
    if spec is None:
        raise Http404
    settings_form = _settings_form(spec, request.POST)
    error: ValidationError | None = None
    if not settings_form.is_valid():
        error = ValidationError(
            [message for problems in settings_form.errors.values() for message in problems]
        )
    else:
        values = {
            name: value
            for name, value in settings_form.cleaned_data.items()
            if name in settings_form.fields
        }
        try:
            session_services.session_play_again(session=session, settings=values)
        except ValidationError as problem:
            error = problem
    return _console_after_action(request, session, error)


def _option_value(raw: str) -> int | str | None:
    # Options are small whole numbers or words; "" means "the session's setting".
    if raw == "":
        return None
    number = whole_number_parse(raw)
    return number if number is not None else raw


@login_required
@require_POST
def seat_action(
    request: TeacherRequest, session_id: int, seat_id: int, action: str
) -> HttpResponse:
    session = session_or_404(request, session_id)
    seat = get_object_or_404(Seat, pk=seat_id, session=session)
    if action == "dismiss-help":
        seat_services.seat_help_dismiss(seat=seat)
        return _dashboard_after_action(request, session)
    error: ValidationError | None = None
    try:
        if action == "move":
            raw_table = request.POST.get("table", "")
            if raw_table == "new":
                seat_services.seat_move(seat=seat, table_number=None)
            elif (table_number := whole_number_parse(raw_table)) is not None:
                seat_services.seat_move(seat=seat, table_number=table_number)
            else:
                raise ValidationError(_("Choose a table."))
        elif action == "kick":
            seat_services.seat_kick(seat=seat)
        elif action == "readmit":
            seat_services.seat_readmit(seat=seat)
        elif action == "rename":
            seat_services.seat_rename(seat=seat, name=request.POST.get("name", ""))
        elif action == "option":
            seat_services.seat_option_set(
                seat=seat,
                name=request.POST.get("name", ""),
                value=_option_value(request.POST.get("value", "")),
            )
        else:
            raise Http404
    except ValidationError as problem:
        error = problem
    return _console_after_action(request, session, error)


# --------------------------------------------------------------------------------------------
# Deleting a session


def _delete_page(
    request: TeacherRequest, session: GameSession, error: str | None = None
) -> HttpResponse:
    context = {
        "session": session,
        "deletion": session_services.session_delete_preview(session=session),
        "error": error,
    }
    return render(
        request, "classroom/session_confirm_delete.html", context, status=409 if error else 200
    )


@login_required
@require_GET
def session_delete_confirm(request: TeacherRequest, session_id: int) -> HttpResponse:
    """What would go, with a confirm button (or why it cannot go yet)."""
    return _delete_page(request, session_or_404(request, session_id, ClassRight.MANAGE))


@login_required
@require_POST
def session_delete(request: TeacherRequest, session_id: int) -> HttpResponse:
    session = session_or_404(request, session_id, ClassRight.MANAGE)
    code = session.code
    try:
        session_services.session_delete(session=session)
    except ValidationError as refused:
        return _delete_page(request, session, " ".join(refused.messages))
    messages.success(
        request,
        _("Session %(code)s deleted, with its players' names and results.") % {"code": code},
    )
    return redirect("home")
