"""axe-core run in the real page: WCAG 2.0-2.2 A and AA rules, and axe's best practices
(landmarks, heading order, one main, ...), which catch what a screen-reader user trips on first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from axe_playwright_python.base import AXE_SCRIPT

if TYPE_CHECKING:
    from playwright.sync_api import Page

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def axe_violations(page: Page) -> list[dict[str, Any]]:
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    results = page.evaluate("options => axe.run(document, options)", options)
    return list(results["violations"])


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
