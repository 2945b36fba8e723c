"""Columns of rows looked up by primary key, without building an ORM query each time.

The log writer reads two such lookups in every group commit (the tables' fencing epochs, the
seats' students and devices). The ORM compiles a query afresh each time, a fraction of a
millisecond of Python each under the GIL, in the thread every flip waits for
(``tests/load/bench_log_writes.py``); the statement here is built from the model once per
number of keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import connections

if TYPE_CHECKING:
    from collections.abc import Collection

    from django.db.models import Model


class ColumnByKey:
    """``{pk: column}`` for the rows of ``model`` whose pk is among the keys asked for.

    ``lock``: the rows are locked for the rest of the transaction where the database can
    (``SELECT … FOR UPDATE``, in primary-key order so two writers never wait on each other in
    a circle); SQLite has one writer at a time anyway.
    """

    def __init__(self, model: type[Model], field_name: str, *, lock: bool = False) -> None:
        self.model = model
        self.columns: tuple[str, ...] = (str(model._meta.get_field(field_name).column),)  # type: ignore[union-attr]
        self.lock = lock
        self._statements: dict[tuple[str, int], str] = {}

    def read(self, keys: Collection[int], *, using: str = "default") -> dict[int, Any]:
        return {row[0]: row[1] for row in self._rows(keys, using)}

    def _rows(self, keys: Collection[int], using: str) -> list[tuple[Any, ...]]:
        if not keys:
            return []
        with connections[using].cursor() as cursor:
            cursor.execute(self._statement(using, len(keys)), list(keys))
            return list(cursor.fetchall())

    def _statement(self, using: str, count: int) -> str:
        statement = self._statements.get((using, count))
        if statement is None:
            connection = connections[using]
            quote = connection.ops.quote_name
            pk = quote(str(self.model._meta.pk.column))
            table = quote(self.model._meta.db_table)
            marks = ", ".join(["%s"] * count)
            locking = (
                " FOR UPDATE" if self.lock and connection.features.has_select_for_update else ""
            )
            # Identifiers come from the model and are quoted; every key is a parameter.
            columns = ", ".join(quote(column) for column in self.columns)
            statement = (
                f"SELECT {pk}, {columns} FROM {table} "  # noqa: S608
                f"WHERE {pk} IN ({marks}) ORDER BY {pk}{locking}"
            )
            self._statements[(using, count)] = statement
        return statement


class ColumnsByKey(ColumnByKey):
    """``{pk: (column, …)}``: several columns of each row in one statement."""

    def __init__(self, model: type[Model], field_names: tuple[str, ...]) -> None:
        super().__init__(model, field_names[0])
        self.columns = tuple(
            str(model._meta.get_field(name).column)  # type: ignore[union-attr]
            for name in field_names
        )

    def read_rows(
        self, keys: Collection[int], *, using: str = "default"
    ) -> dict[int, tuple[Any, ...]]:
        return {row[0]: tuple(row[1:]) for row in self._rows(keys, using)}
