"""Every teacher URL belongs to its class's teachers: others get 404 and change nothing.

A class's teachers are its owner and the colleagues it is shared with: a co-teacher reaches
everything but deleting and sharing the class, a substitute only what runs sessions and shows
results. A stranger, and a colleague whose share was revoked, get 404 everywhere.

The walker reads ``classroom.urls.urlpatterns`` itself, so a new teacher URL is checked as soon
as it exists (for a colleague too: a URL not listed below must let both roles through), and the
walker fails loudly if it does not know how to fill the URL's arguments.
"""

from __future__ import annotations

import copy
import shutil
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, reverse

from classroom.models import (
    AccountAuditEntry,
    Assignment,
    ClassShare,
    Device,
    Export,
    GameSession,
    Invitation,
    PracticeSignIn,
    SchoolClass,
    Seat,
    Student,
    Table,
    Warmup,
)
from classroom.services.assignments import assignment_create
from classroom.services.class_shares import class_share_grant, class_share_revoke
from classroom.services.classes import class_create
from classroom.services.exports import HOME, export_prepare, export_run
from classroom.services.practice_access import practice_code_open, practice_sign_in_by_code
from classroom.services.seats import seat_join_student, seat_kick
from classroom.services.sessions import session_create
from classroom.urls import urlpatterns
from classroom.views.sessions import SESSION_ACTIONS

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from django.db.models import Model

# URLs anyone may open (students, sign-up), and teacher URLs that name no object.
PUBLIC = {
    "home",
    "signup",
    "login",
    "logout",
    "join",
    "join_session",
    "join_badge",
    "play_lobby",
    "play_leave",
    # A seated tablet's device report and warm-up: the seat is the tablet's cookie's.
    "play_device",
    "play_warmup",
    # Practice on a tablet: the student is whoever the tablet's signed cookie names.
    "practice_home",
    "practice_sign_in",
    "practice_sign_in_class",
    "practice_sign_out",
    "practice_start",
    "practice_join_class",
    "practice_progress",
    "practice_warmup_choose",
    "practice_finish",
    "practice_result",
    # Off unless SNAPCLASS_DIAGNOSTICS=1, and then only for loopback requests (load tests).
    "diagnostics",
    # The installable web app: the same for everyone, and no data in either.
    "web_app_manifest",
    "service_worker",
    # For the proxy and monitoring: alive / ready, naming no one.
    "healthz",
    "readyz",
    # Off unless METRICS_TOKEN is set, then only with that bearer token; no one's data.
    "metrics",
    # Where allauth's sign-in flow could send someone: back to the log-in page (classroom/sso).
    "socialaccount_signup",
    "socialaccount_login_cancelled",
    "account_inactive",
    # Accounts: sign-up's answer, and links that carry their own secret (an invitation's, a
    # mailed sign-up's, a password reset's), which a guessed one never opens.
    "signup_sent",
    "signup_confirm",
    "invitation_accept",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
}
# A school admin's pages: no class's object, and 404 for every other teacher (below).
SCHOOL_ADMIN_ONLY = {"school_teachers", "school_invite", "school_teacher_action", "school_audit"}
# Confirmation pages: they only show what a POST elsewhere would do.
GET_ONLY = {"session_delete_confirm"}
# Views the world's objects make refuse (409) even for their owner: deleting a session that
# is still open, keeping a run that was not flagged.
REFUSED_FOR_THE_WORLD = {"session_delete", "run_keep"}
TEACHER_WITHOUT_OBJECTS = {
    "session_new",
    "session_settings",
    "session_length",
    "class_new",
    "teacher_settings",
    "password_change",
}
# accounts/: allauth's sign-in with the school's account and its return (classroom/sso), which
# sign a teacher in and show no one's data.
PUBLIC_INCLUDES = {"i18n/", "accounts/"}
# What a colleague's role keeps them from (404, nothing changes); everything else of the
# shared class they reach as its owner does.
OWNER_ONLY = {"class_delete", "class_share_add", "class_share_revoke"}
# A prepared download is its preparer's own file: the world's is the owner's, so every
# colleague gets 404 for it (and prepares their own from the same page).
PREPARER_ONLY = {
    "export_status", "export_file", "export_again", "home_report_status", "home_report_file",
}  # fmt: skip
MANAGERS_ONLY = {
    "class_edit", "class_roster", "class_roster_preview", "class_roster_confirm",
    "student_rotate", "student_remove", "student_colour_safe", "student_practice_warmup",
    "student_extra_time", "student_year_group",
    "class_practice", "practice_code_action", "assignment_levels", "assignment_remove",
    "session_delete_confirm", "session_delete", "run_keep",
}  # fmt: skip
REFUSED_TO = {
    ClassShare.Role.CO_TEACHER: OWNER_ONLY | PREPARER_ONLY,
    ClassShare.Role.SUBSTITUTE: OWNER_ONLY | MANAGERS_ONLY | PREPARER_ONLY,
}

# What the walker can put in a URL.
ACTIONS: dict[str, list[str]] = {
    "session_action": sorted(SESSION_ACTIONS),
    "seat_action": ["move", "kick", "readmit", "option", "rename", "dismiss-help"],
    "practice_code_action": ["open", "rotate", "close"],
}
KNOWN_KWARGS = {
    "class_id", "student_id", "session_id", "seat_id", "assignment_id", "share_id", "action",
    "kind", "export_id",
}  # fmt: skip
# Everything a hostile form could carry, so a view never refuses for lack of data (sharing
# the class with the stranger, "mr-wu", if the view let the sender share it).
POST_DATA = {
    "name": "Hijacked", "student_names": "Mallory", "table": "new", "token": "x",
    "colleague": "mr-wu", "role": ClassShare.Role.CO_TEACHER,
}  # fmt: skip


def _route_patterns() -> tuple[list[URLPattern], list[str]]:
    """Named URL patterns, and the problems the walker has with the rest."""
    patterns: list[URLPattern] = []
    problems: list[str] = []
    for entry in urlpatterns:
        if isinstance(entry, URLResolver):
            if str(entry.pattern) not in PUBLIC_INCLUDES:
                problems.append(f"unknown include {entry.pattern}")
        elif not isinstance(entry, URLPattern):
            problems.append(f"unknown URL entry {entry!r}")
        elif entry.name is None:
            problems.append(f"unnamed URL {entry.pattern}")
        else:
            patterns.append(entry)
    return patterns, problems


def _kwarg_names(pattern: URLPattern) -> set[str]:
    return set(pattern.pattern.converters)


def _teacher_patterns() -> list[URLPattern]:
    patterns, _problems = _route_patterns()
    return [
        pattern
        for pattern in patterns
        if pattern.name not in PUBLIC | TEACHER_WITHOUT_OBJECTS | SCHOOL_ADMIN_ONLY
    ]


def _cases() -> list[tuple[str, str | None]]:
    cases: list[tuple[str, str | None]] = []
    for pattern in _teacher_patterns():
        assert pattern.name is not None
        if "action" in _kwarg_names(pattern):
            cases.extend((pattern.name, action) for action in ACTIONS.get(pattern.name, []))
        else:
            cases.append((pattern.name, None))
    return cases


CASES = _cases()
CASE_IDS = [f"{name}-{action}" if action else name for name, action in CASES]


def test_walker_knows_every_teacher_url() -> None:
    patterns, problems = _route_patterns()
    for pattern in patterns:
        name = pattern.name
        kwargs = _kwarg_names(pattern)
        if name in PUBLIC | TEACHER_WITHOUT_OBJECTS | SCHOOL_ADMIN_ONLY:
            continue
        if not kwargs:
            problems.append(f"{name}: a teacher URL without object ids; classify it")
        unknown = kwargs - KNOWN_KWARGS
        if unknown:
            problems.append(f"{name}: cannot fill {sorted(unknown)}")
        if "action" in kwargs and not ACTIONS.get(str(name)):
            problems.append(f"{name}: no list of actions to try")
    assert not problems, "Teach the authorization walker these URLs:\n" + "\n".join(problems)
    # Sanity: the walker really walks the console and class URLs.
    walked = {name for name, _action in CASES}
    assert {"class_detail", "class_edit", "student_rotate", "session_console"} <= walked
    assert {"session_action", "seat_action", "class_badges", "session_projector"} <= walked
    assert {"session_delete_confirm", "session_delete"} <= walked
    assert walked >= OWNER_ONLY | MANAGERS_ONLY, "a refused URL the walker does not walk"
    assert len(CASES) >= 6 + len(SESSION_ACTIONS) + 3 - 2


@dataclass
class World:
    owner: User
    intruder: User
    school_class: SchoolClass
    student: Student
    session: GameSession
    seat: Seat
    kicked_seat: Seat
    assignment: Assignment
    # The class is shared with these (the co-teacher's share is the one revoke URLs name).
    colleagues: dict[str, User]
    share: ClassShare
    export: Export  # the owner's prepared workbook of the session, ready
    home_export: Export  # the owner's reports for home of the class, ready
    # Had the class shared, ran a session of it, and had the share revoked.
    former: User
    former_session: GameSession
    # Each other teacher's own class and session, for URLs mixing their ids with the owner's.
    own_class: dict[int, SchoolClass]
    own_session: dict[int, GameSession]

    def user(self, identity: str) -> User:
        if identity == "stranger":
            return self.intruder
        if identity == "former_colleague":
            return self.former
        return self.colleagues[identity]


def _own_objects(teacher: User) -> tuple[SchoolClass, GameSession]:
    own_class = class_create(teacher=teacher, name="Year 3 Otters", student_names=[])
    own_session = session_create(
        teacher=teacher, game="palm_strike", school_class=own_class, players_per_table=2,
        settings={},
    )  # fmt: skip
    return own_class, own_session


def _share(world_class: SchoolClass, owner: User, colleague: User, role: str) -> ClassShare:
    return class_share_grant(
        school_class=world_class, by=owner, colleague=colleague.username, role=role
    )


# A prepared download is built by the task here, without a worker.
TASKS_HERE = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def _make_teacher(username: str) -> User:
    return User.objects.create_user(username=username, password="tablets-and-tigers-42")


@pytest.fixture(scope="module")
def _module_world(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[World, Path]]:
    """The world and its prepared files, built once for the module's few hundred tests (the
    build is two thirds of a test's time) inside a transaction that stays open: each test's
    own transaction is a savepoint within it, rolled back after the test, and this one is
    rolled back after the module. The files go to a folder each test gets a copy of."""
    exports = tmp_path_factory.mktemp("world-exports")
    hashers = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # as conftest's tests have
    built = override_settings(EXPORTS_ROOT=exports, TASKS=TASKS_HERE, PASSWORD_HASHERS=hashers)
    outer = transaction.atomic()
    with django_db_blocker.unblock(), built:
        outer.__enter__()
        try:
            world = _world_build()
        except BaseException:
            outer.__exit__(*sys.exc_info())
            raise
    yield world, exports
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture
def world(_module_world: tuple[World, Path], db: None, settings: Any, tmp_path: Path) -> World:
    """The module's world, as its own copy (a test may refresh or change the objects), with
    its prepared files copied where this test's settings look."""
    built, exports = _module_world
    settings.EXPORTS_ROOT = tmp_path / "exports"
    shutil.copytree(exports, settings.EXPORTS_ROOT)
    settings.TASKS = TASKS_HERE
    return copy.deepcopy(built)


def _world_build() -> World:
    teacher, other_teacher = _make_teacher("ms-lin"), _make_teacher("mr-wu")
    school_class = class_create(
        teacher=teacher, name="Year 3 Otters", student_names=["Ava", "Ben", "Chen", "Dara", "Eli"]
    )
    session = session_create(
        teacher=teacher,
        game="palm_strike",
        school_class=school_class,
        players_per_table=2,
        settings={},
    )
    ava = school_class.students.get(display_name="Ava")
    ben = school_class.students.get(display_name="Ben")
    seat = seat_join_student(session=session, student=ava)
    kicked = seat_join_student(session=session, student=ben)
    seat_join_student(session=session, student=school_class.students.get(display_name="Chen"))
    seat_kick(seat=Seat.objects.get(pk=kicked.pk))
    # Practice by code open, with a tablet signed in: an intruder closing or renewing the
    # code would change the class and that sign-in.
    practice_code_open(school_class=school_class)
    practice_sign_in_by_code(school_class=school_class, student=ava)
    colleagues = {
        ClassShare.Role.CO_TEACHER: _make_teacher("ms-chen"),
        ClassShare.Role.SUBSTITUTE: _make_teacher("mr-diaz"),
    }
    share = _share(school_class, teacher, colleagues[ClassShare.Role.CO_TEACHER], "co_teacher")
    _share(school_class, teacher, colleagues[ClassShare.Role.SUBSTITUTE], "substitute")
    former = _make_teacher("ms-ford")
    former_share = _share(school_class, teacher, former, ClassShare.Role.CO_TEACHER)
    former_session = session_create(
        teacher=former, game="palm_strike", school_class=school_class, players_per_table=2,
        settings={},
    )  # fmt: skip
    class_share_revoke(share=former_share, by=teacher)
    # A prepared download to ask for as an intruder.
    export = export_prepare(owner=teacher, kind="workbook.xlsx", session=session)
    export_run(export_id=export.pk)
    export.refresh_from_db()
    home_export = export_prepare(owner=teacher, kind=HOME, school_class=school_class, period="4w")
    export_run(export_id=home_export.pk)
    own = {user.pk: _own_objects(user) for user in [other_teacher, former, *colleagues.values()]}
    assignment = assignment_create(
        teacher=teacher, school_class=school_class, student=None, game="commotion",
        rung_min=0, rung_max=2, goal_kind="games", goal=1, due_on=None,
    )  # fmt: skip
    return World(
        owner=teacher,
        assignment=assignment,
        intruder=other_teacher,
        school_class=school_class,
        student=ava,
        session=session,
        seat=Seat.objects.get(pk=seat.pk),
        kicked_seat=Seat.objects.get(pk=kicked.pk),
        colleagues=colleagues,
        share=share,
        export=export,
        home_export=home_export,
        former=former,
        former_session=former_session,
        own_class={pk: objects[0] for pk, objects in own.items()},
        own_session={pk: objects[1] for pk, objects in own.items()},
    )


def _kwargs(world: World, name: str, action: str | None) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    for kwarg in _kwarg_names(_pattern(name)):
        if kwarg == "class_id":
            kwargs[kwarg] = world.school_class.pk
        elif kwarg == "student_id":
            kwargs[kwarg] = world.student.pk
        elif kwarg == "session_id":
            kwargs[kwarg] = world.session.pk
        elif kwarg == "seat_id":
            kwargs[kwarg] = world.kicked_seat.pk if action == "readmit" else world.seat.pk
        elif kwarg == "action":
            kwargs[kwarg] = action
        elif kwarg == "assignment_id":
            kwargs[kwarg] = world.assignment.pk
        elif kwarg == "share_id":
            kwargs[kwarg] = world.share.pk
        elif kwarg == "export_id":
            kwargs[kwarg] = (world.home_export if name.startswith("home_") else world.export).pk
        elif kwarg == "kind":
            kwargs[kwarg] = "trials.csv"
        else:
            pytest.fail(f"the walker cannot fill {kwarg!r} of {name}")
    return kwargs


def _mixed_kwargs(world: World, user: User, kwargs: dict[str, Any]) -> dict[str, Any] | None:
    """The user's own parent object with the owner's child object, if the URL has both."""
    if {"student_id", "assignment_id", "share_id"} & set(kwargs):
        return {**kwargs, "class_id": world.own_class[user.pk].pk}
    if "seat_id" in kwargs:
        return {**kwargs, "session_id": world.own_session[user.pk].pk}
    return None


def _missing_kwargs(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {key: (value if key == "action" else 999_999) for key, value in kwargs.items()}


def _snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row a teacher URL could touch, column by column."""
    models: tuple[type[Model], ...] = (
        SchoolClass, Student, GameSession, Table, Seat, Assignment, PracticeSignIn, ClassShare,
        Export, Device, Warmup,
    )  # fmt: skip
    return {
        model.__name__: [dict(row) for row in model._default_manager.order_by("pk").values()]
        for model in models
    }


def _client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _is_post_only(client: Client, url: str) -> bool:
    return client.get(url).status_code == 405


def _assert_refused(world: World, user: User, name: str, action: str | None) -> None:
    """404 for the URL, by any method, with any ids, and nothing changes."""
    kwargs = _kwargs(world, name, action)
    url = reverse(name, kwargs=kwargs)
    intruder = _client_for(user)
    before = _snapshot()

    post = intruder.post(url, POST_DATA)
    htmx_post = intruder.post(url, POST_DATA, headers={"HX-Request": "true"})
    get = intruder.get(url)

    missing_url = reverse(name, kwargs=_missing_kwargs(kwargs))
    if name in GET_ONLY:
        # A GET-only page (a confirmation) refuses POST before looking anything up.
        assert post.status_code == htmx_post.status_code == 405, url
        assert intruder.post(missing_url, POST_DATA).status_code == 405
        assert get.status_code == 404, url
        assert intruder.get(missing_url).status_code == 404
        assert _snapshot() == before
        return
    assert post.status_code == 404, url
    assert htmx_post.status_code == 404, url
    if get.status_code == 405:
        # A POST-only view refuses GET before looking anything up, for any id at all, so the
        # answer tells nothing about the owner's objects.
        assert intruder.get(missing_url).status_code == 405
        assert _client_for(world.owner).get(url).status_code == 405
    else:
        assert get.status_code == 404, url
    assert intruder.post(missing_url, POST_DATA).status_code == 404

    mixed = _mixed_kwargs(world, user, kwargs)
    if mixed is not None:
        assert intruder.post(reverse(name, kwargs=mixed), POST_DATA).status_code == 404

    assert _snapshot() == before
    # Spot checks of what an intruder would most like to change.
    world.session.refresh_from_db()
    assert world.session.status == GameSession.Status.LOBBY
    assert not world.session.lobby_locked
    assert Seat.objects.get(pk=world.seat.pk).kicked_at is None
    assert Seat.objects.get(pk=world.kicked_seat.pk).kicked_at is not None
    assert Student.objects.get(pk=world.student.pk).token == world.student.token
    assert not Student.objects.filter(display_name="Mallory").exists()


def _assert_reaches(world: World, user: User, name: str, action: str | None) -> None:
    """The URL works for this user: the page (200), or the POST done (200 or a redirect)."""
    client = _client_for(user)
    url = reverse(name, kwargs=_kwargs(world, name, action))
    if name in REFUSED_FOR_THE_WORLD:
        # The world's session is in its lobby: the view is reached and says why not.
        assert client.post(url, POST_DATA).status_code == 409
    elif _is_post_only(client, url):
        assert client.post(url, POST_DATA).status_code in {200, 302}
    else:
        assert client.get(url).status_code == 200


@pytest.mark.parametrize(("name", "action"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("identity", ["stranger", "former_colleague"])
def test_another_teacher_gets_404_and_changes_nothing(
    world: World, identity: str, name: str, action: str | None
) -> None:
    _assert_refused(world, world.user(identity), name, action)


@pytest.mark.parametrize(("name", "action"), CASES, ids=CASE_IDS)
def test_the_owner_reaches_every_teacher_url(world: World, name: str, action: str | None) -> None:
    # Control for the test above: the very same URLs work for their owner, so the 404s are
    # about who asks and not about a badly filled URL.
    _assert_reaches(world, world.owner, name, action)


@pytest.mark.parametrize(("name", "action"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("role", sorted(REFUSED_TO))
def test_a_colleague_reaches_what_their_role_allows_and_nothing_else(
    world: World, role: str, name: str, action: str | None
) -> None:
    colleague = world.user(role)
    if name in REFUSED_TO[ClassShare.Role(role)]:
        _assert_refused(world, colleague, name, action)
    else:
        _assert_reaches(world, colleague, name, action)


def _pattern(name: str) -> URLPattern:
    return next(pattern for pattern in _teacher_patterns() if pattern.name == name)


# Every URL of a session as a whole (not of one seat in it).
SESSION_CASES = [
    (name, action)
    for name, action in CASES
    if "session_id" in _kwarg_names(_pattern(name))
    and "seat_id" not in _kwarg_names(_pattern(name))
]


@pytest.mark.parametrize(
    ("name", "action"), SESSION_CASES, ids=[f"{n}-{a}" if a else n for n, a in SESSION_CASES]
)
def test_a_former_colleague_loses_the_sessions_they_ran_for_the_class(
    world: World, name: str, action: str | None
) -> None:
    # A session belongs to its class: the owner reaches the one the colleague ran, and the
    # colleague, once the share is revoked, gets 404 like anyone else.
    kwargs = {**_kwargs(world, name, action), "session_id": world.former_session.pk}
    url = reverse(name, kwargs=kwargs)
    former = _client_for(world.former)
    before = _snapshot()
    assert former.get(url).status_code in {404, 405}, url
    assert former.post(url, POST_DATA).status_code in {404, 405}, url
    assert _snapshot() == before
    assert _client_for(world.owner).get(url).status_code in {200, 405}, url


def _anonymous_cases() -> list[tuple[str, str | None]]:
    return [*CASES, *((name, None) for name in sorted(TEACHER_WITHOUT_OBJECTS))]


@pytest.mark.parametrize(
    ("name", "action"),
    _anonymous_cases(),
    ids=[f"{n}-{a}" if a else n for n, a in _anonymous_cases()],
)
def test_anonymous_users_are_sent_to_log_in(world: World, name: str, action: str | None) -> None:
    kwargs = _kwargs(world, name, action) if name not in TEACHER_WITHOUT_OBJECTS else {}
    url = reverse(name, kwargs=kwargs)
    anonymous = Client()
    before = _snapshot()
    for response in (anonymous.get(url), anonymous.post(url, POST_DATA)):
        assert response.status_code == 302, url
        assert response["Location"] == f"{reverse('login')}?next={quote(url)}"
    assert _snapshot() == before


@pytest.mark.parametrize("name", sorted(SCHOOL_ADMIN_ONLY))
@pytest.mark.parametrize("identity", ["owner", "co_teacher", "stranger"])
def test_a_school_admins_pages_are_404_for_other_teachers(
    world: World, identity: str, name: str
) -> None:
    who = world.owner if identity == "owner" else world.user(identity)
    intruder = _client_for(who)
    target = world.intruder if identity == "owner" else world.owner
    urls = (
        [
            reverse(name, kwargs={"user_id": target.pk, "action": action})
            for action in ("disable", "enable", "reset")
        ]
        if name == "school_teacher_action"
        else [reverse(name)]
    )
    # 405 for the wrong method, before anyone is looked at: the same for every teacher.
    for url in urls:
        assert intruder.get(url).status_code in {404, 405}, url
        post = intruder.post(url, {"email": "mallory@school.example"})
        assert post.status_code in {404, 405}, url
    assert {intruder.get(urls[0]).status_code, intruder.post(urls[0]).status_code} & {404}
    assert User.objects.get(pk=target.pk).is_active
    assert not AccountAuditEntry.objects.exists()
    assert not Invitation.objects.exists()
