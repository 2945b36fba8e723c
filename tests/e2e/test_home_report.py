"""Reports for home in a real browser: a teacher asks for the class set on the class page,
the task worker prepares it, the teacher opens it and Chromium prints it to PDF, one child a
page, in English and in Traditional Chinese. The pages are pictured as print shows them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS, LAPTOP, screenshot, seeded_class

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Browser

pytestmark = pytest.mark.e2e

TEACHER = "ms-home"
SEED = """
import django
django.setup()
from django.contrib.auth.models import User
from tests.seeding.changes import changed_class_seed
found = changed_class_seed(teacher=User.objects.get(username="%s"), students=6)
print(found.school_class.pk)
"""
# One page of the PDF: Chromium writes each as a "/Type /Page" object ("/Pages" is the tree).
PDF_PAGE = re.compile(rb"/Type\s*/Page(?!s)")


def _class_set(teacher: Page, class_id: int, language: str, *, button: str, open_it: str) -> None:
    """Ask for the class set on the class page, wait for the worker, and open it."""
    teacher.goto(f"/classes/{class_id}/")
    ask = teacher.locator("details.home-report-ask")
    ask.locator("summary").click()
    ask.locator("select[name=period]").select_option("all")
    ask.locator("select[name=language]").select_option(language)
    screenshot(teacher, f"home-report-ask-{language}")
    ask.get_by_role("button", name=button).click()
    expect(teacher).to_have_url(re.compile(r"/exports/\d+/home/$"))
    opener = teacher.get_by_role("link", name=open_it)
    expect(opener).to_be_visible(timeout=180000)
    screenshot(teacher, f"home-report-ready-{language}")
    opener.click()
    expect(teacher).to_have_url(re.compile(r"/exports/\d+/home/file/$"))


def _printed(teacher: Page, name: str, children: int) -> Path:
    """The open reports printed to PDF (one page a child), and each page pictured as print
    lays it out; every page's words fit on it."""
    pages = teacher.locator(".home-page")
    expect(pages).to_have_count(children)
    ARTIFACTS.mkdir(exist_ok=True)
    pdf = ARTIFACTS / f"{name}.pdf"
    # As print lays it out (what page.pdf() uses unless the page is told otherwise).
    teacher.emulate_media(media="print")
    teacher.pdf(path=str(pdf), format="A4", print_background=True)
    assert len(PDF_PAGE.findall(pdf.read_bytes())) == children
    overflowing = teacher.evaluate(
        "() => [...document.querySelectorAll('.home-page')]"
        ".filter(p => p.scrollHeight > p.clientHeight + 1).length"
    )
    assert overflowing == 0
    # The printed page's width (A4 less its margins), as the paper shows it.
    teacher.set_viewport_size({"width": 660, "height": 1000})
    for index in (0, 1):
        pages.nth(index).screenshot(path=str(ARTIFACTS / f"{name}-page-{index + 1}.png"))
    teacher.emulate_media(media="null")
    teacher.set_viewport_size(LAPTOP)
    return pdf


@pytest.mark.timeout(600)
@pytest.mark.usefixtures("task_worker")
def test_the_class_set_prints_one_child_a_page_in_both_languages(
    teacher_page: Page, server_env: dict[str, str], browser: Browser
) -> None:
    teacher = teacher_page
    class_id = seeded_class(teacher, TEACHER, SEED, server_env)

    _class_set(
        teacher, class_id, "en",
        button="Prepare the reports for home", open_it="Open the reports for home",
    )  # fmt: skip
    pages = teacher.locator(".home-page")
    first = pages.first
    names = [name.strip() for name in pages.locator("h1").all_inner_texts()]
    assert len(names) == 6
    expect(first).to_contain_text("Palm Strike")
    expect(first).to_contain_text("compares")
    # The first child (by name) got faster in their latest session: their own change.
    expect(first.locator(".growth")).to_contain_text("now answers more quickly")
    for index, name in enumerate(names):
        others = [other for other in names if other != name]
        text = pages.nth(index).inner_text()
        assert [other for other in others if re.search(rf"\b{re.escape(other)}\b", text)] == []
    pdf = _printed(teacher, "home-report-en", 6)
    assert pdf.stat().st_size > 0

    teacher.goto(f"/classes/{class_id}/")
    _class_set(
        teacher, class_id, "zh-hant",
        button="Prepare the reports for home", open_it="Open the reports for home",
    )  # fmt: skip
    assert teacher.locator("html").get_attribute("lang") == "zh-Hant"
    expect(teacher.locator(".home-page").first).to_contain_text("給家長的報告")
    expect(teacher.locator(".home-page").first).to_contain_text("反應")
    _printed(teacher, "home-report-zh", 6)

    # One child's, from their progress page, with the site itself in Traditional Chinese.
    context = browser.new_context(
        base_url=teacher.url.split("/exports/")[0],
        viewport=LAPTOP,
        locale="zh-TW",
        extra_http_headers={"Accept-Language": "zh-TW,zh;q=0.9"},
    )
    context.add_cookies(teacher.context.cookies())
    zh = context.new_page()
    zh.goto(f"/classes/{class_id}/progress/")
    zh.get_by_role("link", name=names[0], exact=True).first.click()
    ask = zh.locator("details.home-report-ask")
    ask.locator("summary").click()
    expect(ask).to_contain_text("給")
    screenshot(zh, "home-report-ask-child-zh-ui")
    ask.get_by_role("button", name="準備給家長的報告").click()
    opener = zh.get_by_role("link", name="打開給家長的報告")
    expect(opener).to_be_visible(timeout=180000)
    opener.click()
    expect(zh.locator(".home-page")).to_have_count(1)
    expect(zh.locator(".home-page h1")).to_have_text(names[0])
    context.close()
