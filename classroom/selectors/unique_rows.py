"""The row a unique lookup finds, or None."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Model

if TYPE_CHECKING:
    from django.db.models import QuerySet

RowT = TypeVar("RowT", bound=Model)


def unique_row(queryset: QuerySet[RowT]) -> RowT | None:
    """``queryset.first()`` for a filter on a unique column, at about half its cost.

    ``first()`` orders by the model's ``Meta.ordering`` ("-created_at", "-pk" …), and compiling
    that ORDER BY is a large part of a code lookup while a class joins
    (``tests/load/bench_joins.py``); ``get()`` drops the ordering, which one row never needs.
    """
    try:
        return queryset.get()
    except ObjectDoesNotExist:
        return None
