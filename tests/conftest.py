"""Shared fixtures: teachers, classes and sessions made through the real services."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import translation
from xdist.scheduler import LoadScopeScheduling

from classroom.hosting.table_hosts import log_writer
from classroom.services.classes import class_create
from classroom.services.sessions import session_create

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from django.test import Client

    from classroom.models import GameSession, SchoolClass


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    # pytest-django's, plus: the live log writer keeps a connection of its own in its own
    # thread, and PostgreSQL will not drop the test database while it is open.
    yield
    log_writer.close_connection()


@pytest.fixture(autouse=True)
def _plain_static_storage(settings: Any) -> None:
    # The manifest storage needs `collectstatic` first; unit tests render without it.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # The real hasher takes ~0.25 s per teacher; these tests are not about hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    # A page asked for in Chinese leaves Chinese active in this thread (LocaleMiddleware
    # activates, nothing deactivates): each test starts in the site's default language.
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    # Rate-limit counters live in the cache; each test starts from zero.
    cache.clear()


@pytest.fixture(autouse=True)
def _teacher_pages_drawn_in_thread(settings: Any) -> None:
    # A process of its own would not see what a test's transaction wrote; the drawing
    # process is tested apart (tests/classroom/pages/test_page_drawing.py) and serves every
    # browser test's Daphne.
    settings.TEACHER_PAGES_DRAWN_APART = False


@pytest.fixture(autouse=True)
def _fresh_render_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # The teacher pages' budget is per process: one test's renders never slow the next's.
    from classroom.pages import render_schedule
    from classroom.pages.render_budget import RenderBudget

    monkeypatch.setattr(render_schedule, "teacher_render_budget", RenderBudget())


@pytest.fixture
def make_teacher(db: None) -> Callable[..., User]:
    def make(username: str = "teacher") -> User:
        return User.objects.create_user(username=username, password="tablets-and-tigers-42")

    return make


@pytest.fixture
def teacher(make_teacher: Callable[..., User]) -> User:
    return make_teacher("ms-lin")


@pytest.fixture
def teacher_client(client: Client, teacher: User) -> Client:
    """The test client, signed in as ``teacher``."""
    client.force_login(teacher)
    return client


@pytest.fixture
def other_teacher(make_teacher: Callable[..., User]) -> User:
    return make_teacher("mr-wu")


@pytest.fixture
def school_class(teacher: User) -> SchoolClass:
    return class_create(
        teacher=teacher, name="Year 3 Otters", student_names=["Ava", "Ben", "Chen", "Dara", "Eli"]
    )


@pytest.fixture
def make_session(teacher: User) -> Callable[..., GameSession]:
    def make(
        *,
        owner: User | None = None,
        school_class: SchoolClass | None = None,
        players_per_table: int = 2,
        settings: dict[str, Any] | None = None,
    ) -> GameSession:
        return session_create(
            teacher=owner or teacher,
            game="palm_strike",
            school_class=school_class,
            players_per_table=players_per_table,
            settings=settings or {},
        )

    return make


@pytest.fixture
def class_session(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> GameSession:
    return make_session(school_class=school_class)


@pytest.fixture
def guest_session(make_session: Callable[..., GameSession]) -> GameSession:
    return make_session()


# Marks by folder, so `make check` can leave out what needs real processes or a browser.
_FOLDER_MARKS = {"e2e": "e2e", "cluster": "cluster", "faults": "slow", "soak": "slow"}


# Under pytest-xdist (`make test` and `make check` run `-n`) a file's tests stay on one worker,
# so module-scoped sites are built once. The tests that start real server processes (cluster,
# faults, soak) share one work unit and run one after another: each already takes both cores
# for its processes, and two at once would measure each other's load.
_PROCESS_FOLDERS = frozenset({"cluster", "faults", "soak"})
# The same, for a file in a folder whose other tests are quick.
_PROCESS_FILES = frozenset({"tests/deploy/test_rehearsal.py"})
_PROCESS_UNIT = "real-processes"
# Browser files whose tests play a whole game at the game's own pace (minutes of waiting on
# its clock, little CPU). With the real-process unit they make the paced lane (see
# ``_FileScheduling``), about a third of the run's length on three workers; the shorter
# paced files stay in the busy lanes, which have the rest of the run to balance.
_PACED_FILES = frozenset({"tests/e2e/test_riff_raff_ship.py"})
# The files of the busy rest that take longest (each over 10 s of CPU, most of a minute for
# the contract's random play), started before the rest: a long file that started last would
# keep one worker going alone at the end of the run (15-40 s of `make check`).
_LONG_FILES = (
    "tests/games/test_contract.py",
    "tests/classroom/test_authorization.py",
    "tests/classroom/hosting/test_table_hosts.py",
    "tests/classroom/sockets/test_pages.py",
    "tests/seeding/test_school.py",
    "tests/classroom/sockets/test_authorization.py",
    "tests/classroom/sockets/test_table.py",
    "tests/classroom/server/test_haproxy.py",
)


def _work_unit(nodeid: str) -> str:
    path = nodeid.split("::", 1)[0]
    parts = path.split("/")
    real = (len(parts) > 1 and parts[1] in _PROCESS_FOLDERS) or path in _PROCESS_FILES
    return _PROCESS_UNIT if real else path


def _paced(unit: str) -> bool:
    """Whether a work unit mostly waits (on lease timeouts, restarts, a game's clock)."""
    return unit == _PROCESS_UNIT or unit in _PACED_FILES


class _FileScheduling(LoadScopeScheduling):
    """xdist's scope scheduling with this suite's work units (see ``_work_unit``), in the
    order of collection, in two lanes: the first worker takes the paced units (they wait far
    more than they compute) while the others take the rest, and each takes from the other
    lane once its own is empty. So the paced units, a third of the run's length but little
    of its CPU, run beside the busy ones rather than taking turns with them.

    Not ``--dist loadgroup``: it groups by a suffix its hook writes into ``item._nodeid``,
    which pytest 9.2 no longer reads (``nodeid`` comes from ``item._id``), so every test went
    its own way and each module's browser classroom was built once per worker."""

    def _split_scope(self, nodeid: str) -> str:
        return _work_unit(nodeid)

    def _assign_work_unit(self, node: Any) -> None:
        paced_lane = node is self.nodes[0] and len(self.nodes) > 1
        for scope in self.workqueue:
            if _paced(scope) == paced_lane:
                self.workqueue.move_to_end(scope, last=False)
                break
        super()._assign_work_unit(node)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> _FileScheduling:
    # Collection order (below), not xdist's largest-unit-first.
    config.option.loadscopereorder = False
    return _FileScheduling(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.relative_to(item.config.rootpath).parts
        if len(parts) > 1 and parts[0] == "tests" and parts[1] in _FOLDER_MARKS:
            item.add_marker(_FOLDER_MARKS[parts[1]])
    # Workers take units in this order: the long serial unit, the browser files and the long
    # files first, so the short files fill in around them rather than one long file ending last.
    items.sort(key=_start_order)


def _start_order(item: pytest.Item) -> tuple[int, int]:
    path = item.path.relative_to(item.config.rootpath)
    folder = path.parts[1] if len(path.parts) > 1 else ""
    if folder in _PROCESS_FOLDERS or path.as_posix() in _PROCESS_FILES:
        return (0, 0)
    if folder == "e2e":
        return (1, 0)
    name = path.as_posix()
    return (2, _LONG_FILES.index(name)) if name in _LONG_FILES else (3, 0)


# On CI pytest prints each failure's whole message in the short summary, the run's last lines,
# and a browser assertion's message holds a snapshot of the page: the failed test's name then
# scrolled out of the part of the log CI keeps. The summary gets the message's first line; the
# failure's own section above still holds all of it.
_SUMMARY_MESSAGE_CHARS = 300


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    crash = getattr(report.longrepr, "reprcrash", None)
    if report.failed and crash is not None:
        first_line = crash.message.split("\n", 1)[0]
        if first_line != crash.message or len(first_line) > _SUMMARY_MESSAGE_CHARS:
            crash.message = first_line[:_SUMMARY_MESSAGE_CHARS] + " […]"
    return report
