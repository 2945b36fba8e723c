"""The wire schema of every WebSocket frame, validated strictly with msgspec.

Client → server frames are JSON objects ``{"type": "...", "seq": n, ...}``. Anything that is
not exactly one of the known frames is answered with an :class:`ErrorFrame` and changes
nothing.
"""

from __future__ import annotations

from typing import Final

import msgspec

MAX_FRAME_BYTES: Final = 4096


class Ping(msgspec.Struct, tag="ping", tag_field="type", forbid_unknown_fields=True):
    """Keep-alive and round-trip probe; answered with :class:`Pong`."""

    seq: int


ClientFrame = Ping


class Pong(msgspec.Struct, tag="pong", tag_field="type"):
    seq: int


class ErrorFrame(msgspec.Struct, tag="error", tag_field="type"):
    code: str
    message: str
    seq: int | None = None


class ProtocolError(Exception):
    """A frame that is not one we accept; ``code`` is stable, ``message`` readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def frame(self) -> ErrorFrame:
        return ErrorFrame(code=self.code, message=self.message)


class _Envelope(msgspec.Struct):
    """Just the tag: msgspec treats the tag of a lone tagged Struct as optional."""

    type: str


_envelope_decoder: Final = msgspec.json.Decoder(_Envelope)
_decoder: Final = msgspec.json.Decoder(ClientFrame)
_encoder: Final = msgspec.json.Encoder()


def client_frame_decode(raw: str | bytes | None) -> ClientFrame:
    """Parse one client frame or raise :class:`ProtocolError` saying what is wrong."""
    if raw is None:
        raise ProtocolError("empty", "Empty frame.")
    try:
        data = raw.encode() if isinstance(raw, str) else raw
    except UnicodeEncodeError as error:
        raise ProtocolError("malformed", "Frames must be UTF-8 text.") from error
    if len(data) > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", f"Frames are limited to {MAX_FRAME_BYTES} bytes.")
    try:
        _envelope_decoder.decode(data)
        return _decoder.decode(data)
    except msgspec.ValidationError as error:
        raise ProtocolError("invalid", f"Invalid frame: {error}") from error
    except msgspec.DecodeError as error:
        raise ProtocolError("malformed", "Frames must be JSON objects.") from error


def server_frame_encode(frame: msgspec.Struct) -> str:
    return _encoder.encode(frame).decode()
