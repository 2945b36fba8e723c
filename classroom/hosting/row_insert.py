"""Multi-row INSERT without the ORM's per-object work, for the live log's hot path.

``bulk_create`` builds a model instance and runs every field's save hooks for each row; for a
log entry and four trials that is a fraction of a millisecond of CPU under the GIL, on the
path between a flip and the tablets seeing it. Here only the columns that need it are adapted
for the database (JSON, timestamps), and the rows go in one statement per chunk rather than
one execution per row: each SQLite step lets the GIL go, and under load the log writer's
thread waits up to a switch interval to win it back from the event loop, per step
(``tests/load/bench_log_writes.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import connections

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.models import Field, Model

# Rows in one statement at most (SQLite's own cap on parameters is lower for wide rows).
MAX_ROWS_PER_STATEMENT = 500


class RowInserter:
    """Inserts plain value rows into ``model`` for the named fields, in that order."""

    def __init__(self, model: type[Model], field_names: Sequence[str]) -> None:
        self.model = model
        self.fields: tuple[Field[Any, Any], ...] = tuple(
            model._meta.get_field(name)  # type: ignore[misc]
            for name in field_names
        )
        # Only these need the backend's adaptation (JSON text or jsonb, aware datetimes).
        self._adapt = tuple(
            index
            for index, field in enumerate(self.fields)
            if field.get_internal_type() in {"JSONField", "DateTimeField"}
        )
        self._heads: dict[str, str] = {}

    def insert(self, rows: Iterable[Sequence[Any]], *, using: str = "default") -> None:
        connection = connections[using]
        prepared = self._prepared(rows, connection)
        if not prepared:
            return
        size = min(
            MAX_ROWS_PER_STATEMENT,
            max(1, connection.ops.bulk_batch_size(list(self.fields), prepared)),
        )
        row_marks = "(" + ", ".join(["%s"] * len(self.fields)) + ")"
        with connection.cursor() as cursor:
            for start in range(0, len(prepared), size):
                chunk = prepared[start : start + size]
                values = ", ".join([row_marks] * len(chunk))
                cursor.execute(
                    f"{self._head(using)} VALUES {values}",
                    [value for row in chunk for value in row],
                )

    def _prepared(
        self, rows: Iterable[Sequence[Any]], connection: BaseDatabaseWrapper
    ) -> list[list[Any]]:
        # A batch's rows share their timestamp (one object): adapted once, not once a row.
        last: dict[int, tuple[Any, Any]] = {}
        prepared = []
        for row in rows:
            values = list(row)
            for index in self._adapt:
                value = values[index]
                kept = last.get(index)
                if kept is None or kept[0] is not value:
                    kept = last[index] = (
                        value,
                        self.fields[index].get_db_prep_save(value, connection),
                    )
                values[index] = kept[1]
            prepared.append(values)
        return prepared

    def _head(self, using: str) -> str:
        if using not in self._heads:
            quote = connections[using].ops.quote_name
            columns = ", ".join(quote(str(field.column)) for field in self.fields)
            table = quote(self.model._meta.db_table)
            # Identifiers come from the model and are quoted; every value is a parameter.
            self._heads[using] = f"INSERT INTO {table} ({columns})"
        return self._heads[using]
