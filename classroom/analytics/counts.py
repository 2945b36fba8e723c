"""Counts that pool by adding field by field: a session's from its kinds of trial, a class's
from its sessions (``SignalCounts``, ``Tally``)."""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:
    from collections.abc import Callable

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
