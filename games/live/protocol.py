"""The wire schema of every WebSocket frame, validated strictly with msgspec.

Client → server frames are JSON objects ``{"type": "...", "seq": n, ...}``. Anything that is
not exactly one of the known frames is answered with an :class:`ErrorFrame` and changes
nothing.
"""

from __future__ import annotations

import functools
import operator
from typing import TYPE_CHECKING, Annotated, Any, Final, TypeAlias

import msgspec

from games.engine.actions import action_plain
from games.live.round_trip import MAX_RTT_MS
from games.registry import game_registry

MAX_FRAME_BYTES: Final = 4096
# No real frame nests more than a few levels. Checked before decoding: how deep msgspec may go
# before a RecursionError depends on the Python version (3.11 stops near 550, 3.13 does not).
MAX_FRAME_NESTING: Final = 32

Seq = Annotated[int, msgspec.Meta(ge=0, le=2**31)]


class _Frame(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    pass


class Ping(_Frame, tag="ping"):
    """Keep-alive and round-trip probe; answered with :class:`Pong`."""

    seq: Seq


class Sync(_Frame, tag="sync"):
    """ "I missed frames": answered with a fresh view of the table."""

    seq: Seq


def _game_actions() -> tuple[type[GameAction], ...]:
    """Every game's actions (each game declares its own, in games/<game>/actions.py)."""
    kinds = [kind for spec in game_registry().values() for kind in spec.actions.kinds]
    tags = [kind.__struct_config__.tag for kind in kinds]
    twice = sorted({str(tag) for tag in tags if tags.count(tag) > 1})
    if twice:
        raise TypeError(f"Two games name an action alike: {', '.join(twice)}.")
    return tuple(kinds)


# Game actions travel inside an ``act`` frame, tagged by ``kind``: one of any game's.
if TYPE_CHECKING:
    from games.engine.actions import GameAction

    Action: TypeAlias = GameAction
else:
    Action = functools.reduce(operator.or_, _game_actions())


# A tablet's id for one input: its page's random id and the input's number. The same input
# sent twice (a retry after a dropped socket, a duplicated frame) is applied once.
ClientId = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9:_-]+$")]


class Act(_Frame, tag="act"):
    seq: Seq
    action: Action
    cid: ClientId | None = None


ClientFrame = Ping | Sync | Act


class Pong(msgspec.Struct, tag="pong", tag_field="type"):
    seq: int


class Ack(msgspec.Struct, tag="ack", tag_field="type"):
    seq: int
    version: int
    epoch: int = 0


class Pending(msgspec.Struct, tag="pending", tag_field="type"):
    """The input ``seq`` could not be stored yet and the server keeps trying: its ``ack`` (or
    an ``error`` saying it did not count) follows."""

    seq: int
    reason: str = "saving"


class StateFrame(msgspec.Struct, tag="state", tag_field="type"):
    """A seat's whole view of its table at ``version`` (one per accepted change)."""

    version: int
    view: dict[str, Any]
    events: list[dict[str, Any]] = msgspec.field(default_factory=list)
    # The server's monotonic clock (ms) when the change began: lets a benchmark on the same
    # machine measure change-to-tablet latency. Not a game time.
    at_ms: int = 0
    # The owner's fencing epoch (games.live.leases): a view from an older owner is stale even
    # if its version is higher.
    epoch: int = 0
    # A timed change (a flip): how long after it fell due the host began it, ms (its wake-up
    # lateness, which ``at_ms`` alone hides from a benchmark). 0 for a change a tablet sent.
    late_ms: int = 0


class MotionFrame(msgspec.Struct, tag="motion", tag_field="type"):
    """Where moving things are (a physics game), between logged changes: the same for every
    socket, serialized once. ``version`` is the state version it moves on from."""

    version: int
    frame: dict[str, Any]
    at_ms: int = 0
    game_ms: int = 0
    epoch: int = 0


class StandingsFrame(msgspec.Struct, tag="standings", tag_field="type"):
    """What the session lets a tablet show of points, ranks and winners: sent to a page that
    asks for it when it connects and whenever the teacher changes it."""

    leaderboard: str
    scoring: bool
    # The teacher's sound switch for the tablets (off unless turned on).
    sound: bool = False


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


def action_for_engine(action: Action, *, server_rtt_ms: int = 0) -> Action:
    """The decoded action as the engine gets it: its round trip (``rtt_ms``) is the one the
    server measured itself (games.live.round_trip; 0 where it has none), never the tablet's.

    Plausibility is judged on the server's own clock (games.engine.reaction): the tablet's own
    figure (up to ten seconds) let a forged RT pass as plausible.
    """
    if not hasattr(action, "rtt_ms"):
        return action
    server_rtt_ms = max(0, min(MAX_RTT_MS, server_rtt_ms))
    if getattr(action, "rtt_ms", 0) != server_rtt_ms:
        return msgspec.structs.replace(action, rtt_ms=server_rtt_ms)
    return action


def action_to_dict(action: Action) -> dict[str, Any]:
    """The engine's plain form of a validated action (``kind`` plus its fields), as the action
    log stores it."""
    return action_plain(action_for_engine(action))


_encoder: Final = msgspec.json.Encoder()


def _nests_too_deeply(data: bytes) -> bool:
    # Few brackets in all cannot nest deeply: the byte-by-byte walk is for the odd frame only.
    if data.count(b"[") + data.count(b"{") <= MAX_FRAME_NESTING:
        return False
    depth = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > MAX_FRAME_NESTING:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


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
    if _nests_too_deeply(data):
        raise ProtocolError("malformed", "Frames must not nest so deeply.")
    try:
        _envelope_decoder.decode(data)
        return _decoder.decode(data)
    except msgspec.ValidationError as error:
        raise ProtocolError("invalid", f"Invalid frame: {error}") from error
    except msgspec.DecodeError as error:
        raise ProtocolError("malformed", "Frames must be JSON objects.") from error
    except RecursionError as error:
        # A few KiB of "[[[[…" nest past the interpreter's limit inside msgspec; no real frame
        # nests more than a few levels.
        raise ProtocolError("malformed", "Frames must not nest so deeply.") from error


def server_frame_encode(frame: msgspec.Struct) -> str:
    return _encoder.encode(frame).decode()
