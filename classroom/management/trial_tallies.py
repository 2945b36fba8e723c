"""The SQL that keeps ``TrialTally`` (one row per student, session, kind and game) equal to a
count of the trials, on SQLite and PostgreSQL.

Migrations 0016 and 0021 install the triggers (their own frozen copy of this text, as
migrations must not change under an installed database); the school seed, which inserts with
triggers off, counts its sessions with ``tallies_recount``; tests compare the rows with a
fresh count.

Each count is what the selectors' ``_COUNTS`` and trend mean count (a CASE is true exactly
when the aggregate's FILTER is, NULLs included); ``TREND_RT_FLOOR_MS`` is
``classroom.analytics.speed.ANTICIPATION_FLOOR_MS`` (a test holds them equal: a change needs a
migration rewriting the triggers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import connection

if TYPE_CHECKING:
    from collections.abc import Sequence

TREND_RT_FLOOR_MS = 200
_TREND = f"correct AND responded AND plausible AND rt_ms >= {TREND_RT_FLOOR_MS}"

COLUMNS = (
    "student_id, session_id, kind, game, started, level, trials, correct_count, hits, misses, "
    "false_alarms, correct_rejections, congruent_targets, congruent_errors, "
    "incongruent_targets, incongruent_errors, trend_rt_count, trend_rt_sum"
)

# The counts of the trials in ``{source}`` that pass ``{where}``, one row per key.
COUNT_SQL = f"""
SELECT student_id, session_id, kind, game, MIN(created_at), MIN(level), COUNT(*),
    SUM(CASE WHEN correct THEN 1 ELSE 0 END),
    SUM(CASE WHEN target AND responded THEN 1 ELSE 0 END),
    SUM(CASE WHEN target AND NOT responded THEN 1 ELSE 0 END),
    SUM(CASE WHEN NOT target AND responded THEN 1 ELSE 0 END),
    SUM(CASE WHEN NOT target AND NOT responded THEN 1 ELSE 0 END),
    SUM(CASE WHEN target AND congruent THEN 1 ELSE 0 END),
    SUM(CASE WHEN target AND congruent AND NOT correct THEN 1 ELSE 0 END),
    SUM(CASE WHEN target AND NOT congruent THEN 1 ELSE 0 END),
    SUM(CASE WHEN target AND NOT congruent AND NOT correct THEN 1 ELSE 0 END),
    SUM(CASE WHEN {_TREND} THEN 1 ELSE 0 END),
    SUM(CASE WHEN {_TREND} THEN rt_ms ELSE 0 END)
FROM {{source}}
WHERE student_id IS NOT NULL AND ({{where}})
GROUP BY student_id, session_id, kind, game
"""  # noqa: S608 (constants only)


def tallies_recount(*, session_ids: Sequence[int]) -> None:
    """Count the sessions' tallies again from their trials (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM classroom_trialtally WHERE session_id = ANY(%s)", [list(session_ids)]
        )
        cursor.execute(
            f"INSERT INTO classroom_trialtally ({COLUMNS}) "
            + COUNT_SQL.format(source="classroom_trial", where="session_id = ANY(%s)"),
            [list(session_ids)],
        )
