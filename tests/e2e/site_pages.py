"""Every page of the site, and how to open it in a built classroom (see classroom_site.py).

To audit a new page, add a line: a name, who opens it, and its path with ``{placeholders}``
taken from ``Site.ids`` (add an id in classroom_site.py if the page needs a new one).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.e2e.classroom_site import new_laptop_context, new_tablet_context

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from playwright.sync_api import Browser, Page

    from tests.e2e.classroom_site import Site

# Who opens the page: a fresh browser with no cookies, the signed-in teacher, or the tablet
# of the named student (whose cookie holds their seat).
VISITOR = "visitor"
TEACHER = "teacher"


@dataclass(frozen=True)
class SitePage:
    name: str
    who: str
    path: str
    # A JavaScript expression that is true once the page has drawn its live content.
    ready: str = ""
    # Some pages leave at once by script (the seat resume form): audit their HTML as sent.
    scripts: bool = True
    # What to do on the page before the audit (e.g. submit a wrong code to show the error).
    then: Callable[[Page], None] | None = None
    # The viewport of the student pages; teacher pages use a laptop's.
    tablet: bool = False


def _wrong_code(page: Page) -> None:
    page.locator("input[name=code]").fill("ZZZZZZ")
    page.locator("form.join-form button[type=submit]").click()
    page.wait_for_selector(".play-problem")


def _sent_empty(page: Page) -> None:
    """The page's form sent as it stands (empty): its fields' messages shown."""
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_selector(".field-error")


# A class list with a new name, a name already in the class and a blank line: the preview
# marks each line's problem.
ROSTER_FILE = b"name\nZoe\nAva\n\n"


def _roster_previewed(page: Page) -> None:
    page.locator("input[type=file]").set_input_files(
        files=[{"name": "class.csv", "mimeType": "text/csv", "buffer": ROSTER_FILE}]
    )
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_selector("#roster-preview table")


def _workbook_asked(page: Page) -> None:
    """Prepare workbook pressed: the panel that follows the background task (pressed once:
    the page in the second language shows the same task)."""
    done = "#workbook-panel :is(progress, [role=alert], a[download])"
    if not page.locator(done).count():
        page.locator("#workbook-panel button[type=submit]").click()
    page.wait_for_selector(done)


def _drawn(game: str, selector: str) -> str:
    """Ready when the game's script (its module, ``static/js/<game>.js``) has its first view
    and has drawn ``selector``."""
    tablet = f"pageModules.{game}?.tablet"
    return f"{tablet} && {tablet}.view && document.querySelector({selector!r})"


def _student(name: str, who: str, path: str, **options: object) -> SitePage:
    return SitePage(name, who, path, tablet=True, **options)  # type: ignore[arg-type]


_CONSOLE_READY = "document.querySelector('#console-live')"

TEACHER_PAGES = [
    SitePage("welcome", VISITOR, "/"),
    SitePage("signup", VISITOR, "/accounts/signup/"),
    SitePage("signup-errors", VISITOR, "/accounts/signup/", then=_sent_empty),
    SitePage("login", VISITOR, "/accounts/login/"),
    SitePage("login-errors", VISITOR, "/accounts/login/", then=_sent_empty),
    SitePage("not-found", VISITOR, "/no-such-page/"),
    SitePage("class-list", TEACHER, "/"),
    SitePage("password-change", TEACHER, "/accounts/password/"),
    SitePage("password-change-errors", TEACHER, "/accounts/password/", then=_sent_empty),
    SitePage("class-new", TEACHER, "/classes/new/"),
    SitePage("class-new-errors", TEACHER, "/classes/new/", then=_sent_empty),
    SitePage("class-detail", TEACHER, "/classes/{class_id}/"),
    SitePage("class-edit", TEACHER, "/classes/{class_id}/edit/"),
    SitePage("class-roster", TEACHER, "/classes/{class_id}/roster/"),
    SitePage("class-roster-preview", TEACHER, "/classes/{class_id}/roster/",
             then=_roster_previewed),
    SitePage("class-badges", TEACHER, "/classes/{class_id}/badges/"),
    SitePage("class-delete", TEACHER, "/classes/{other_class_id}/delete/"),
    SitePage("class-progress", TEACHER, "/classes/{class_id}/progress/"),
    SitePage("class-progress-print", TEACHER, "/classes/{class_id}/progress/print/"),
    SitePage("student-progress", TEACHER, "/classes/{class_id}/students/{ava_id}/progress/"),
    SitePage("teacher-settings", TEACHER, "/settings/"),
    SitePage("session-new", TEACHER, "/sessions/new/"),
    SitePage("console-lobby", TEACHER, "/sessions/{lobby_id}/", ready=_CONSOLE_READY),
    SitePage("console-playing", TEACHER, "/sessions/{palm_strike_id}/", ready=_CONSOLE_READY),
    SitePage("console-commotion", TEACHER, "/sessions/{commotion_id}/", ready=_CONSOLE_READY),
    SitePage("console-riff-raff", TEACHER, "/sessions/{riff_raff_id}/", ready=_CONSOLE_READY),
    SitePage("console-ended", TEACHER, "/sessions/{finished_id}/", ready=_CONSOLE_READY),
    SitePage("projector-lobby", TEACHER, "/sessions/{lobby_id}/projector/"),
    SitePage("projector-palm-strike", TEACHER, "/sessions/{palm_strike_id}/projector/"),
    SitePage("projector-commotion", TEACHER, "/sessions/{commotion_id}/projector/"),
    SitePage("projector-riff-raff", TEACHER, "/sessions/{riff_raff_id}/projector/"),
    SitePage("projector-ended", TEACHER, "/sessions/{finished_id}/projector/"),
    SitePage("class-practice", TEACHER, "/classes/{other_class_id}/practice/"),
    SitePage("class-practice-no-code", TEACHER, "/classes/{class_id}/practice/"),
    SitePage("session-report", TEACHER, "/sessions/{finished_id}/report/"),
    SitePage("session-report-commotion", TEACHER, "/sessions/{commotion_id}/report/"),
    SitePage("session-report-riff-raff", TEACHER, "/sessions/{riff_raff_id}/report/"),
    SitePage("session-delete", TEACHER, "/sessions/{finished_id}/delete/"),
    SitePage("seat-report", TEACHER, "/sessions/{finished_id}/report/seats/{finished_seat_id}/"),
    # Last: the workbook asked for stays asked for on the pages audited after it.
    SitePage("class-progress-workbook", TEACHER, "/classes/{class_id}/progress/",
             then=_workbook_asked),
]  # fmt: skip

STUDENT_PAGES = [
    _student("join", VISITOR, "/join/"),
    _student("join-wrong-code", VISITOR, "/join/", then=_wrong_code),
    _student("join-roster", VISITOR, "/join/{lobby_code}/"),
    _student("join-nickname", VISITOR, "/join/{guest_code}/"),
    _student("badge-landing", VISITOR, "/b/{badge_token}/"),
    _student("lobby", "Eli", "/play/{lobby_code}/"),
    _student("resume", VISITOR, "/play/{lobby_code}/", scripts=False),
    _student("notice", "Fay", "/play/{lobby_code}/"),
    _student("play-palm-strike", "Ava", "/play/{palm_strike_code}/",
             ready=_drawn("palm_strike", "[data-hand] .pcard")),
    _student("play-commotion", "Chen", "/play/{commotion_code}/",
             ready=_drawn("commotion", "[data-tableau] button")),
    _student("play-riff-raff", "Dara", "/play/{riff_raff_code}/",
             ready=_drawn("riff_raff", "[data-players] li")),
    _student("practice-sign-in", VISITOR, "/practice/sign-in/"),
    _student("practice-sign-in-wrong-code", VISITOR, "/practice/sign-in/", then=_wrong_code),
    _student("practice-sign-in-class", VISITOR, "/practice/sign-in/{practice_code}/"),
    _student("practice-home", "Gus", "/practice/"),
    _student("practice-result", "Gus", "/practice/{practice_done_code}/"),
    _student("practice-progress", "Gus", "/practice/progress/"),
    _student("play-practice", "Gus", "/play/{practice_playing_code}/",
             ready=_drawn("commotion", "[data-adaptive-level]:not([hidden])")),
]  # fmt: skip

PAGES = TEACHER_PAGES + STUDENT_PAGES
GAME_PAGES = [page for page in STUDENT_PAGES if page.name.startswith("play-")]


# Django's default language cookie, which the language switch (/i18n/setlang/) sets.
LANGUAGE_COOKIE = "django_language"
LANGUAGES = ["en", "zh-hant"]
HTML_LANG = {"en": "en", "zh-hant": "zh-Hant"}


@contextmanager
def opened(site: Site, browser: Browser, page: SitePage, language: str) -> Iterator[Page]:
    """The page, open in ``language`` in its visitor's browser, ready to be looked at."""
    with _tab(site, browser, page) as tab:
        _show(site, page, tab, language)
        yield tab


def in_each_language(site: Site, browser: Browser, page: SitePage) -> Iterator[tuple[str, Page]]:
    """The page in each language in turn, in one tab of its visitor's browser (a language
    is a cookie and a reload away: no new browser or tab for the second)."""
    with _tab(site, browser, page) as tab:
        for language in LANGUAGES:
            _show(site, page, tab, language)
            yield language, tab


@contextmanager
def _tab(site: Site, browser: Browser, page: SitePage) -> Iterator[Page]:
    if page.who == VISITOR:
        context = (new_tablet_context if page.tablet else new_laptop_context)(browser, site.url)
    else:
        context = site.context_for(page.who)
    tab = context.new_page()
    tab.on("dialog", lambda dialog: dialog.dismiss())
    if not page.scripts:
        tab.route("**/*.js", lambda route: route.abort())
    try:
        yield tab
    finally:
        tab.close()
        if page.who == VISITOR:
            context.close()


def _show(site: Site, page: SitePage, tab: Page, language: str) -> None:
    tab.context.add_cookies([{"name": LANGUAGE_COOKIE, "value": language, "url": site.url}])
    tab.goto(page.path.format(**site.ids))
    if page.ready:
        tab.wait_for_function(page.ready, timeout=15000)
    if page.then is not None:
        page.then(tab)
