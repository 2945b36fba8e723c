"""axe-core run in the real page: WCAG 2.0-2.2 A and AA rules, and axe's best practices
(landmarks, heading order, one main, ...), which catch what a screen-reader user trips on first.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from tests.e2e.conftest import ROOT

if TYPE_CHECKING:
    from playwright.sync_api import Page

# axe-core from package.json (`make setup` installs it), so the audit runs the rules of the
# version pinned there and a newer axe is one line in package.json away.
AXE_SCRIPT_PATH = ROOT / "node_modules" / "axe-core" / "axe.min.js"

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
# Left out of the audit, each with its reason:
# - a Palm Strike card's colour word: the card is a picture (role=img, named "the word GREEN in
#   purple on yellow"), and the word's ink on the card's colour is the puzzle itself, drawn with
#   a white outline that axe does not count (WCAG 1.4.3 exempts text that is part of a picture).
#   The projector's face-up card (.public-face) is the same picture, drawn large, and the
#   new-session form's matching pairs (.mini-face) draw it small.
EXEMPT = [[".pcard-word"], [".public-face"], [".mini-face"]]


# Finite animations finished (a name chip that pops in is half transparent for 240 ms, and
# its colours measured then are a blend; the projector's confetti falls for seconds): each is
# taken to its end at once, so the audit sees the page as it comes to rest, and so is one
# that a live part swapped in starts after the first look. Endless ones (a pulsing dot) are
# left running.
ANIMATIONS_SETTLED = """() => {
    const finite = document.getAnimations()
        .filter(animation => animation.effect.getComputedTiming().iterations !== Infinity);
    finite.forEach(animation => animation.finish());
    return finite.every(animation => animation.playState !== 'running');
}"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    violations = _audit(page)
    if violations:
        # A live page may swap in a part while axe runs (a name chip popping in over a
        # busy machine's late redraw) and axe then measures it mid-animation. What is really
        # wrong is still there in a second audit of the settled page.
        violations = _audit(page)
    return violations


def _audit(page: Page) -> list[dict[str, Any]]:
    page.wait_for_function(ANIMATIONS_SETTLED, timeout=5000)
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_axe_script())
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    context = {"include": [["html"]], "exclude": EXEMPT}
    results = page.evaluate("([context, options]) => axe.run(context, options)", [context, options])
    return list(results["violations"])


@cache
def _axe_script() -> str:
    if not AXE_SCRIPT_PATH.exists():
        raise RuntimeError(f"{AXE_SCRIPT_PATH} is missing: `make setup` installs axe-core")
    return AXE_SCRIPT_PATH.read_text()


def describe(violations: list[dict[str, Any]]) -> str:
    """One line per offending element: rule, impact, where, and axe's own explanation."""
    lines = []
    for violation in violations:
        for node in violation["nodes"]:
            where = " ".join(map(str, node["target"]))
            why = node.get("failureSummary", "").replace("\n", " ")
            lines.append(f"{violation['id']} ({violation['impact']}) at {where}: {why}")
            lines.append(f"    {node['html'][:200]}")
    return "\n".join(lines)
