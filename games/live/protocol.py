"""The wire schema of every WebSocket frame, validated strictly with msgspec.

Client → server frames are JSON objects ``{"type": "...", "seq": n, ...}``. Anything that is
not exactly one of the known frames is answered with an :class:`ErrorFrame` and changes
nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

import msgspec

MAX_FRAME_BYTES: Final = 4096

Seq = Annotated[int, msgspec.Meta(ge=0, le=2**31)]
FlipNumber = Annotated[int, msgspec.Meta(ge=1, le=100_000)]
CardIndex = Annotated[int, msgspec.Meta(ge=0, le=63)]
ReactionMs = Annotated[int, msgspec.Meta(ge=0, le=60_000)]
RoundTripMs = Annotated[int, msgspec.Meta(ge=0, le=10_000)]


class _Frame(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    pass


class Ping(_Frame, tag="ping"):
    """Keep-alive and round-trip probe; answered with :class:`Pong`."""

    seq: Seq


class Sync(_Frame, tag="sync"):
    """ "I missed frames": answered with a fresh view of the table."""

    seq: Seq


# Game actions travel inside an ``act`` frame, tagged by ``kind``.
class _Action(msgspec.Struct, tag_field="kind", forbid_unknown_fields=True):
    pass


class FlipAction(_Action, tag="flip"):
    pass


class SlapAction(_Action, tag="slap"):
    flip: FlipNumber
    rt_ms: ReactionMs
    rtt_ms: RoundTripMs = 0


class ChooseAction(_Action, tag="choose"):
    card: CardIndex


class ClaimAction(_Action, tag="claim"):
    flip: FlipNumber
    card: CardIndex
    rt_ms: ReactionMs
    rtt_ms: RoundTripMs = 0


# Centre piles (a card goes from your tableau or waste top onto a centre pile, or opens one).
PileIndex = Annotated[int, msgspec.Meta(ge=-1, le=511)]
PileSize = Annotated[int, msgspec.Meta(ge=-1, le=64)]


class PlayAction(_Action, tag="play"):
    source: Literal["tableau", "waste"]
    card: CardIndex
    # An index into the view's centre list, or -1 to open a new pile with a START.
    pile: PileIndex
    # How many cards the player saw on that pile: tells a lost race from a wrong card.
    pile_size: PileSize = -1
    rt_ms: ReactionMs = 0
    rtt_ms: RoundTripMs = 0


class TurnAction(_Action, tag="turn"):
    pass


class OutAction(_Action, tag="out"):
    pass


class ExtraAction(_Action, tag="extra"):
    pass


# The rocking ship (secret card choice, captaincy, cargo drops, catching falling cargo).
CardNumber = Annotated[int, msgspec.Meta(ge=1, le=10)]
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=15)]
PieceId = Annotated[int, msgspec.Meta(ge=0, le=9_999)]
# Ship coordinates in cm (the ship is about 120 wide) and radians.
ShipX = Annotated[float, msgspec.Meta(ge=-500.0, le=500.0)]
Angle = Annotated[float, msgspec.Meta(ge=-7.0, le=7.0)]


class ChooseCardAction(_Action, tag="choose_card"):
    card: CardNumber


class PickCaptainAction(_Action, tag="pick_captain"):
    seat: SeatNumber


class OrderAction(_Action, tag="order"):
    seats: Annotated[list[SeatNumber], msgspec.Meta(min_length=1, max_length=16)]


class DeclareAction(_Action, tag="declare"):
    pieces: Literal[1, 2]


class DropAction(_Action, tag="drop"):
    piece: PieceId
    x: ShipX
    angle: Angle = 0.0
    # The release height (ship y): tells areas 5, 7 and 9 apart, which share x ranges.
    y: ShipX | None = None


class CatchAction(_Action, tag="catch"):
    piece: PieceId
    rt_ms: ReactionMs
    rtt_ms: RoundTripMs = 0


Action = (
    FlipAction
    | SlapAction
    | ChooseAction
    | ClaimAction
    | PlayAction
    | TurnAction
    | OutAction
    | ExtraAction
    | ChooseCardAction
    | PickCaptainAction
    | OrderAction
    | DeclareAction
    | DropAction
    | CatchAction
)


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


def action_to_dict(action: Action) -> dict[str, Any]:
    """The engine's plain form of a validated action (``kind`` plus its fields).

    The round trip a tablet reports (``rtt_ms``) never reaches an engine: plausibility is
    judged on the server's own clock. A stimulus's age there (from the moment the host made it,
    before the frame left, to the moment the response arrived) already holds the whole round
    trip, so a real reaction time is never longer than that age plus frame slack; adding the
    tablet's own figure (up to a minute) let a forged RT pass as plausible.
    """
    result: dict[str, Any] = msgspec.to_builtins(action)
    if "rtt_ms" in result:
        result["rtt_ms"] = 0
    return result


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
    except RecursionError as error:
        # A few KiB of "[[[[…" nest past the interpreter's limit inside msgspec; no real frame
        # nests more than a few levels.
        raise ProtocolError("malformed", "Frames must not nest so deeply.") from error


def server_frame_encode(frame: msgspec.Struct) -> str:
    return _encoder.encode(frame).decode()
