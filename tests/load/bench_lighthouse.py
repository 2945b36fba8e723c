"""Lighthouse over the public, teacher and tablet pages of a classroom in full swing.

The classroom is built through the site's own pages as the browser tests build it
(tests/e2e/classroom_site.py: a signed-in teacher, two classes, three games running, a lobby,
practice); then Lighthouse (npm ``lighthouse``, pinned in package.json) audits each page in one
headless Chromium, with the cookies of whoever opens the page (the teacher's session, the
tablet's seat) sent as an extra header. Teacher and public pages are audited as a desktop,
tablet pages as a 1024 x 768 touch screen. Prints JSON: each page's scores (0-100) and, for
accessibility and best practices, every audit that did not pass.

    make lighthouse
    .venv/bin/python tests/load/bench_lighthouse.py [--pages welcome ...] [--languages en zh-hant]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.e2e.classroom_site import build_site, close_site
from tests.e2e.conftest import CHROMIUM, ROOT, _free_port, chromium_launch, served, site_env
from tests.e2e.site_pages import LANGUAGE_COOKIE, LANGUAGES, PAGES, VISITOR, SitePage

# Each kind of page the site has, once: public, teacher (signed in) and tablet (seated).
AUDITED = [
    "welcome", "signup", "login", "join", "practice-sign-in",
    "class-list", "class-detail", "student-progress", "session-report", "console-playing",
    "projector-palm-strike",
    "lobby", "play-palm-strike", "play-commotion", "play-riff-raff",
]  # fmt: skip
# The classroom is built on whatever else the machine runs: its pages may answer slowly.
BUILD_TIMEOUT_MS = 120_000
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
# The categories that must be 100 on every page: what did not pass is listed.
MUST_PASS = ["accessibility", "best-practices"]
LIGHTHOUSE = ["npx", "--no", "--", "lighthouse"]
DESKTOP = ["--preset=desktop"]
TABLET = [
    "--form-factor=mobile", "--screenEmulation.mobile", "--screenEmulation.width=1024",
    "--screenEmulation.height=768", "--screenEmulation.deviceScaleFactor=1",
]  # fmt: skip


def _cookie_header(site: Any, page: SitePage, language: str) -> str:
    cookies = {} if page.who == VISITOR else {
        cookie["name"]: cookie["value"] for cookie in site.context_for(page.who).cookies(site.url)
    }  # fmt: skip
    cookies[LANGUAGE_COOKIE] = language
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def _chromium(port: int, profile: Path) -> subprocess.Popen[bytes]:
    """One headless Chromium for every audit (Lighthouse opens a tab in it for each)."""
    process = subprocess.Popen(
        [str(CHROMIUM), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--remote-debugging-port={port}", f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=2).close()
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("Chromium did not open its debugging port")


def _audit(url: str, cookie: str, tablet: bool, chrome_port: int, report: Path) -> dict[str, Any]:
    subprocess.run(
        [*LIGHTHOUSE, url, f"--port={chrome_port}", "--quiet", "--output=json",
         f"--output-path={report}", f"--only-categories={','.join(CATEGORIES)}",
         f"--extra-headers={json.dumps({'Cookie': cookie})}", *(TABLET if tablet else DESKTOP)],
        cwd=ROOT, check=True,
    )  # fmt: skip
    result = json.loads(report.read_text())
    if result.get("runtimeError"):
        return {"error": result["runtimeError"].get("message", "")}
    categories = result["categories"]
    scores: dict[str, Any] = {name: round(100 * categories[name]["score"]) for name in CATEGORIES}
    failed = [
        f"{name}: {ref['id']}"
        for name in MUST_PASS
        for ref in categories[name]["auditRefs"]
        if ref["weight"] > 0 and (result["audits"][ref["id"]]["score"] or 0) < 1
    ]
    if failed:
        scores["failed"] = failed
    return scores


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pages", nargs="*", default=AUDITED, choices=[p.name for p in PAGES])
    parser.add_argument("--languages", nargs="*", default=["en"], choices=LANGUAGES)
    args = parser.parse_args()
    pages = [page for page in PAGES if page.name in args.pages]
    results: dict[str, Any] = {}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="snapclass-lighthouse-") as workdir:
        work = Path(workdir)
        env = site_env(work)
        database = Path(env["DATABASE_URL"].removeprefix("sqlite:///"))
        with served(env, work / "daphne.log") as url, sync_playwright() as playwright:
            browser = chromium_launch(playwright)
            new_context = browser.new_context

            def patient_context(**kwargs: Any) -> BrowserContext:
                context = new_context(**kwargs)
                context.set_default_timeout(BUILD_TIMEOUT_MS)
                return context

            browser.new_context = patient_context  # type: ignore[method-assign]
            site = build_site(browser, url, database, "lighthouse-teacher")
            chrome_port = _free_port()
            chrome = _chromium(chrome_port, work / "chromium-profile")
            try:
                for language in args.languages:
                    for page in pages:
                        address = url + page.path.format(**site.ids)
                        cookie = _cookie_header(site, page, language)
                        report = work / f"{page.name}-{language}.json"
                        key = f"{page.name} ({language})"
                        results[key] = _audit(address, cookie, page.tablet, chrome_port, report)
                        print(key, json.dumps(results[key]), file=sys.stderr)
            finally:
                chrome.kill()
                chrome.wait()
                close_site(site)
                browser.close()
    worst = {
        name: min(scores[name] for scores in results.values() if name in scores)
        for name in CATEGORIES
    }
    print(
        json.dumps(
            {
                "lighthouse": _lighthouse_version(),
                "pages": results,
                "lowest": worst,
                "seconds": round(time.monotonic() - started),
            },
            indent=1,
        )
    )


def _lighthouse_version() -> str:
    package = json.loads((ROOT / "node_modules" / "lighthouse" / "package.json").read_text())
    return str(package["version"])


if __name__ == "__main__":
    main()
