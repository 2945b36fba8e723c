"""Counts that pool by adding field by field: a session's from its kinds of trial, a class's
from its sessions (``SignalCounts``, ``Tally``)."""

from __future__ import annotations

import functools
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from _typeshed import DataclassInstance

    Counts = TypeVar("Counts", bound=DataclassInstance)
else:
    Counts = TypeVar("Counts")


@functools.cache
def _field_names(kind: type[Any]) -> tuple[str, ...]:
    return tuple(field.name for field in fields(kind))


def counts_sum(first: Counts, second: Counts) -> Counts:
    """A ``first`` whose every field is the sum of its and ``second``'s (fields that add up,
    in the order the dataclass declares them)."""
    kind = cast("Callable[..., Counts]", type(first))
    names = _field_names(type(first))
    return kind(*[getattr(first, name) + getattr(second, name) for name in names])


@functools.cache
def _nested_kinds(kind: type) -> tuple[type | None, ...]:
    """For each field of ``kind``, the kind of the counts it holds (a tally's signal), or None
    for a plain count; read off an empty one (every kind of counts starts at zeros)."""
    empty = kind()
    return tuple(
        type(value) if is_dataclass(value) else None
        for value in (getattr(empty, name) for name in _field_names(kind))
    )


def counts_row(counts: Any) -> list[int]:
    """Every count of ``counts`` in one flat row, nested counts (a tally's signal) in place, in
    the order the dataclasses declare them. Rows of single trials summed column by column are
    the row of all of them (``counts_of_row`` reads it back): what the split-half estimate's
    thousands of halves add up at C speed."""
    kind: type = type(counts)
    row: list[int] = []
    for name, nested in zip(_field_names(kind), _nested_kinds(kind), strict=True):
        value = getattr(counts, name)
        row.extend((value,) if nested is None else counts_row(value))
    return row


def _rebuilt(kind: type, values: Iterator[int]) -> Any:
    return kind(
        *[
            int(next(values)) if nested is None else _rebuilt(nested, values)
            for nested in _nested_kinds(kind)
        ]
    )


def counts_of_row(kind: type[Counts], row: Sequence[int]) -> Counts:
    """The counts of ``kind`` whose ``counts_row`` is ``row``."""
    made: Counts = _rebuilt(kind, iter(row))
    return made
