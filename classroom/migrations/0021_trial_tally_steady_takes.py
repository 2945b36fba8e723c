"""Trial tallies kept at a cost that does not grow with the group: a changed or deleted trial
is subtracted from its row, and the row's earliest time or smallest level is looked up again
(one step down an index of the group by that column) only when the trial held it. Counting the
group again from its trials for each trial taken out costs the square of the group's size
when a purge deletes oldest first (each trial its group's earliest).

The text is frozen here; 0016's helpers are frozen too, so they are shared from it."""

from importlib import import_module

from django.db import migrations, models

tallies = import_module("classroom.migrations.0016_trial_tallies")
TALLY, TRIAL, KEY, COUNTS, COLUMNS = (
    tallies.TALLY,
    tallies.TRIAL,
    tallies.KEY,
    tallies.COUNTS,
    tallies.COLUMNS,
)
# The two columns a tally keeps as MIN(): each has an index of the group by it.
LEAST = (("started", "created_at"), ("level", "level"))


def _matched(left: str, right: str) -> str:
    return " AND ".join(f"{left}.{name} = {right}.{name}" for name in KEY)


def _least_again(column: str, source: str, group: str) -> str:
    """The smallest ``source`` column among the trials of ``group``'s key (index-backed)."""
    return f"(SELECT MIN(t.{source}) FROM {TRIAL} AS t WHERE {_matched('t', group)})"


def _sqlite_taken(row: str) -> str:
    """Take ``row`` (OLD) out of its tally: its counts subtracted, the tally gone at zero, and
    a MIN the row held looked up again."""
    matched = " AND ".join(f"{name} = {row}.{name}" for name in KEY)
    taken = ", ".join(
        f"{name} = {name} - {tallies._case(when, then, row + '.')}" for name, when, then in COUNTS
    )
    statements = [
        f"UPDATE {TALLY} SET {taken} WHERE {matched};",
        f"DELETE FROM {TALLY} WHERE {matched} AND trials = 0;",
    ]
    for column, source in LEAST:
        statements.append(
            f"UPDATE {TALLY} SET {column} = {_least_again(column, source, TALLY)} "
            f"WHERE {matched} AND {column} = {row}.{source};"
        )
    return " ".join(statements)


def _sqlite() -> list[str]:
    # A change adds the new row before taking the old one out, so a MIN looked up again sees
    # the table as it now is.
    counted = ", ".join(
        [*KEY, "created_at", "level", "target", "responded", "congruent", "rt_ms", "correct",
         "plausible"]
    )  # fmt: skip
    return [
        f"CREATE TRIGGER classroom_trial_tally_changed AFTER UPDATE OF {counted} ON {TRIAL} "
        f"BEGIN {tallies._sqlite_added('NEW')} {_sqlite_taken('OLD')} END",
        f"CREATE TRIGGER classroom_trial_tally_deleted AFTER DELETE ON {TRIAL} "
        f"BEGIN {_sqlite_taken('OLD')} END",
    ]


def _postgresql_taken(rows: str) -> str:
    """Take the trials of the transition table ``rows`` out of their tallies, a statement at
    a time: each key's counts subtracted once, the tallies at zero gone, and a MIN that one
    of the rows held looked up again."""
    names = [*KEY, "started", "level", *(name for name, _when, _then in COUNTS)]
    taken = ", ".join(f"{name} = {TALLY}.{name} - o.{name}" for name, _when, _then in COUNTS)
    counted = f"({tallies._count(rows, 'TRUE')}) AS o ({', '.join(names)})"
    statements = [
        f"UPDATE {TALLY} SET {taken} FROM {counted} WHERE {_matched(TALLY, 'o')};",
        f"DELETE FROM {TALLY} USING {counted} WHERE {_matched(TALLY, 'o')} "
        f"AND {TALLY}.trials = 0;",
    ]
    for column, source in LEAST:
        statements.append(
            f"UPDATE {TALLY} SET {column} = {_least_again(column, source, TALLY)} "
            f"FROM {counted} WHERE {_matched(TALLY, 'o')} AND {TALLY}.{column} = o.{column};"
        )
    return " ".join(statements)


def _postgresql() -> list[str]:
    add = (
        f"INSERT INTO {TALLY} ({COLUMNS}) {tallies._count('new_trials', 'TRUE')} "
        f"{tallies._added('LEAST')};"
    )
    functions = {
        "change": add + " " + _postgresql_taken("old_trials"),
        "take": _postgresql_taken("old_trials"),
    }
    return [
        *(
            f"CREATE FUNCTION classroom_trial_tally_{name}() RETURNS trigger LANGUAGE plpgsql "
            f"AS $$ BEGIN {body} RETURN NULL; END $$"
            for name, body in functions.items()
        ),
        f"CREATE TRIGGER classroom_trial_tally_changed AFTER UPDATE ON {TRIAL} "
        "REFERENCING OLD TABLE AS old_trials NEW TABLE AS new_trials FOR EACH STATEMENT "
        "EXECUTE FUNCTION classroom_trial_tally_change()",
        f"CREATE TRIGGER classroom_trial_tally_deleted AFTER DELETE ON {TRIAL} "
        "REFERENCING OLD TABLE AS old_trials FOR EACH STATEMENT "
        "EXECUTE FUNCTION classroom_trial_tally_take()",
    ]


def _triggers_drop(schema_editor, functions: tuple[str, ...]) -> None:
    postgresql = schema_editor.connection.vendor == "postgresql"
    for name in ("changed", "deleted"):
        on = f" ON {TRIAL}" if postgresql else ""
        schema_editor.execute(f"DROP TRIGGER classroom_trial_tally_{name}{on}")
    if postgresql:
        for name in functions:
            schema_editor.execute(f"DROP FUNCTION classroom_trial_tally_{name}()")


def triggers_replace(apps, schema_editor):
    _triggers_drop(schema_editor, ("recount_changed", "recount_deleted"))
    vendor = schema_editor.connection.vendor
    for statement in {"postgresql": _postgresql, "sqlite": _sqlite}[vendor]():
        schema_editor.execute(statement, params=None)


def triggers_restore(apps, schema_editor):
    _triggers_drop(schema_editor, ("change", "take"))
    if schema_editor.connection.vendor == "postgresql":
        for name in ("recount_changed", "recount_deleted"):
            tables = ("old_trials", "new_trials") if name == "recount_changed" else ("old_trials",)
            schema_editor.execute(
                f"CREATE FUNCTION classroom_trial_tally_{name}() RETURNS trigger "
                f"LANGUAGE plpgsql AS $$ BEGIN {tallies._postgresql_recount(tables)} "
                "RETURN NULL; END $$"
            )
        statements = tallies._postgresql()[-2:]
    else:
        statements = tallies._sqlite()[-2:]
    for statement in statements:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ('classroom', '0020_run_flag'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='trial',
            index=models.Index(fields=['student', 'session', 'kind', 'game', 'created_at'], name='trial_tally_started'),
        ),
        migrations.AddIndex(
            model_name='trial',
            index=models.Index(fields=['student', 'session', 'kind', 'game', 'level'], name='trial_tally_level'),
        ),
        migrations.RunPython(triggers_replace, triggers_restore),
    ]
