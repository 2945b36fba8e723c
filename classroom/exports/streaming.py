"""Streaming a body chunk by chunk under WSGI and ASGI alike.

Django serves a plain iterator under ASGI (Daphne, which runs this site) by reading it into a
list first, and an async one under WSGI (the test client) the same way. So the body is handed
over in the form the request's server consumes chunk by chunk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator

    from django.http import HttpRequest

T = TypeVar("T")


def _next_chunk(chunks: Iterator[T]) -> T | None:
    return next(chunks, None)  # chunks are text or bytes, never None


async def _pulled(chunks: Iterator[T]) -> AsyncIterator[T]:
    # Thread-sensitive: the chunks read the database through the request's own connection.
    pull = sync_to_async(_next_chunk, thread_sensitive=True)
    while (chunk := await pull(chunks)) is not None:
        yield chunk


def streamed(request: HttpRequest, chunks: Iterator[T]) -> Iterator[T] | AsyncIterator[T]:
    if isinstance(request, ASGIRequest):
        return _pulled(chunks)
    return chunks
