"""Every page: a Content-Security-Policy with nothing inline, and no-store for the cache.

Two halves: every template file is read for inline script, inline event handlers and style
attributes (what the policy would block), and real pages, filled with a class, children and a
playing session, are rendered and checked the same way with their headers.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from classroom.models import GameSession
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.practice_access import practice_code_open
from classroom.services.seats import seat_join_student
from classroom.services.sessions import session_create, session_start
from tests.classroom.trial_rows import played_session, worked_example

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

TEMPLATES = Path(settings.BASE_DIR) / "templates"
DATA_SCRIPT_TYPES = {"application/json", "application/ld+json"}


class _InlineFinder(HTMLParser):
    """What a policy of script-src/style-src 'self' would refuse to run or apply."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._in_data_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        for name, _value in attrs:
            if name.startswith(("on", "hx-on")):
                self.problems.append(f"<{tag} {name}=…>: an inline handler")
            if name == "style":
                self.problems.append(f"<{tag} style=…>: an inline style")
        if tag == "script" and "src" not in names and names.get("type") not in DATA_SCRIPT_TYPES:
            self.problems.append("<script> without src: inline script")
        if tag == "style":
            self.problems.append("<style>: an inline stylesheet")
        for name in ("href", "src", "action"):
            if (names.get(name) or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}=javascript:…>")


def _inline_problems(html: str) -> list[str]:
    finder = _InlineFinder()
    finder.feed(html)
    return finder.problems


def _template_text(path: Path) -> str:
    # Template tags inside attributes are not HTML; blank them so the parser sees the tags.
    text = path.read_text()
    text = re.sub(r"{#.*?#}", "", text)  # one line only, as in Django: a longer one is text
    text = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", "", text, flags=re.S)
    return re.sub(r"{[{%].*?[}%]}", "x", text, flags=re.S)


@pytest.mark.parametrize(
    "path", sorted(TEMPLATES.rglob("*.html")), ids=lambda path: str(path.relative_to(TEMPLATES))
)
def test_no_template_has_anything_the_policy_would_block(path: Path) -> None:
    assert _inline_problems(_template_text(path)) == []


def test_the_finder_finds_what_the_policy_blocks() -> None:
    # The checker itself: each of these is refused by script-src/style-src 'self'.
    assert _inline_problems("<script>alert(1)</script>")
    assert _inline_problems('<button onclick="go()">')
    assert _inline_problems('<form hx-on::after-request="x">')
    assert _inline_problems('<span style="--left: 3%">')
    assert _inline_problems("<style>p{}</style>")
    assert _inline_problems('<a href="javascript:go()">')
    assert not _inline_problems('<script src="/static/js/live.js" defer></script>')
    assert not _inline_problems('<script type="application/json" id="x">{}</script>')
    assert not _inline_problems('<span data-style="--left: 3%">')


# Real pages ---------------------------------------------------------------------------------


def _policy(response: object) -> dict[str, set[str]]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    directives: dict[str, set[str]] = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = set(values)
    return directives


def _assert_safe_page(response: object, url: str) -> None:
    assert response.status_code == 200, url  # type: ignore[attr-defined]
    policy = _policy(response)
    assert policy["default-src"] == {"'self'"}, url
    assert policy["script-src"] == {"'self'"}, url
    assert policy["style-src"] == {"'self'"}, url
    assert policy["object-src"] == {"'none'"}, url
    assert policy["frame-ancestors"] == {"'none'"}, url
    html = response.content.decode()  # type: ignore[attr-defined]
    assert _inline_problems(html) == [], url
    assert "no-store" in response["Cache-Control"], url  # type: ignore[index]


@pytest.fixture
def playing(school_class: SchoolClass, teacher: User) -> dict[str, GameSession]:
    """One started session of each game, Ava and Ben seated in each."""
    sessions = {}
    ava, ben = school_class.students.order_by("display_name")[:2]
    for game in ("palm_strike", "commotion", "riff_raff"):
        session = session_create(
            teacher=teacher, game=game, school_class=school_class, players_per_table=2, settings={}
        )
        for student in (ava, ben):
            seat_join_student(session=session, student=student)
        session_start(session=session)
        sessions[game] = GameSession.objects.get(pk=session.pk)
    return sessions


def test_teacher_pages(
    client: Client, teacher: User, school_class: SchoolClass, playing: dict[str, GameSession]
) -> None:
    client.force_login(teacher)
    ava = school_class.students.get(display_name="Ava")
    # A played session with trials: the reports draw their charts (pygal SVG) from it.
    session = session_create(
        teacher=teacher, game="palm_strike", school_class=school_class, players_per_table=2,
        settings={},
    )  # fmt: skip
    seat = played_session(session=session, students=[ava])[ava.pk]
    worked_example(seat)
    urls = [
        reverse("home"),
        reverse("class_detail", args=[school_class.pk]),
        reverse("class_badges", args=[school_class.pk]),
        reverse("class_practice", args=[school_class.pk]),
        reverse("class_overview", args=[school_class.pk]),
        reverse("class_progress_print", args=[school_class.pk]),
        reverse("student_progress", args=[school_class.pk, ava.pk]),
        reverse("session_new"),
        reverse("session_report", args=[session.pk]),
        reverse("session_report_seat", args=[session.pk, seat.pk]),
        reverse("teacher_settings"),
        reverse("password_change"),
    ]
    for game_session in playing.values():
        urls += [
            reverse("session_console", args=[game_session.pk]),
            reverse("session_projector", args=[game_session.pk]),
        ]
    for url in urls:
        _assert_safe_page(client.get(url), url)
    report = client.get(reverse("session_report", args=[session.pk])).content.decode()
    assert 'class="pygal-chart' in report  # the charts were there, and passed


def test_tablet_pages(school_class: SchoolClass, playing: dict[str, GameSession]) -> None:
    for session in playing.values():
        tablet = Client()
        seat = session.seats.first()
        assert seat is not None
        tablet.cookies[seat_cookie_name(session.code)] = seat.token
        url = reverse("play_lobby", args=[session.code])
        response = tablet.get(url)
        assert f"play/{session.game}" in " ".join(t.name for t in response.templates if t.name)
        _assert_safe_page(response, url)
    lobby = session_create(
        teacher=school_class.teacher, game="palm_strike", school_class=school_class,
        players_per_table=2, settings={},
    )  # fmt: skip
    ava = school_class.students.get(display_name="Ava")
    seat = seat_join_student(session=lobby, student=ava)
    tablet = Client()
    for url in (reverse("join"), reverse("join_session", args=[lobby.code])):
        _assert_safe_page(tablet.get(url), url)
    tablet.cookies[seat_cookie_name(lobby.code)] = seat.token
    _assert_safe_page(tablet.get(reverse("play_lobby", args=[lobby.code])), "lobby")
    practice = Client()
    practice_code_open(school_class=school_class)  # code sign-in works only while it is open
    sign_in = reverse("practice_sign_in_class", args=[school_class.practice_code])
    _assert_safe_page(practice.get(sign_in), sign_in)
    assert practice.post(sign_in, {"student": str(ava.pk)}).status_code == 302
    for name in ("practice_sign_in", "practice_home", "practice_progress"):
        url = reverse(name)
        _assert_safe_page(practice.get(url), url)


def test_public_pages(client: Client, db: None) -> None:
    for url in (reverse("home"), reverse("login"), reverse("signup")):
        _assert_safe_page(client.get(url), url)


@override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True)
def test_static_files_keep_their_own_cache_headers(db: None) -> None:
    response = Client().get("/static/css/snapclass.css")
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")


def test_a_download_keeps_its_own_cache_header(
    client: Client, teacher: User, school_class: SchoolClass
) -> None:
    client.force_login(teacher)
    response = client.get(reverse("class_export", args=[school_class.pk, "trials.csv"]))
    assert response["Cache-Control"] == "private, no-store"


def test_htmx_is_told_to_write_no_inline_style(client: Client, db: None) -> None:
    html = client.get(reverse("join")).content.decode()
    meta = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", html)
    assert meta is not None
    config = json.loads(meta.group(1))
    # Its indicator <style>, and copying style attributes across a swap, are both refused.
    assert config["includeIndicatorStyles"] is False
    assert "style" not in config["attributesToSettle"]
    assert config["allowEval"] is False  # hx-on and js: values would need 'unsafe-eval'
    # Configured before htmx reads it.
    assert html.index('name="htmx-config"') < html.index("django_htmx/htmx-")
