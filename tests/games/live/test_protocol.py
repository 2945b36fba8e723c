"""The WebSocket wire schema: strict decoding of client frames, stable error codes."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.live.protocol import (
    MAX_FRAME_BYTES,
    Act,
    ErrorFrame,
    Ping,
    Pong,
    ProtocolError,
    action_to_dict,
    client_frame_decode,
    server_frame_encode,
)

FUZZ = settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
ERROR_CODES = {"empty", "too_large", "malformed", "invalid"}


def _padded_ping(total_bytes: int, seq: int = 7) -> str:
    """A valid ping padded with trailing JSON whitespace to exactly ``total_bytes``."""
    frame = json.dumps({"type": "ping", "seq": seq}, separators=(",", ":"))
    return frame + " " * (total_bytes - len(frame.encode()))


# --------------------------------------------------------------------------------------------
# Accepted frames


@pytest.mark.parametrize("raw", ['{"type":"ping","seq":7}', b'{"type":"ping","seq":7}'])
def test_ping_is_accepted_as_text_or_bytes(raw: str | bytes) -> None:
    frame = client_frame_decode(raw)
    assert isinstance(frame, Ping)
    assert frame.seq == 7


def test_ping_with_whitespace_and_reordered_keys_is_accepted() -> None:
    frame = client_frame_decode(' { "seq" : 0 , "type" : "ping" } \n')
    assert frame == Ping(seq=0)


def test_frame_of_exactly_the_limit_is_accepted() -> None:
    raw = _padded_ping(MAX_FRAME_BYTES)
    assert len(raw.encode()) == MAX_FRAME_BYTES
    assert client_frame_decode(raw) == Ping(seq=7)


# --------------------------------------------------------------------------------------------
# Rejected frames


def _code_of(raw: str | bytes | None) -> str:
    with pytest.raises(ProtocolError) as caught:
        client_frame_decode(raw)
    assert caught.value.message, "a ProtocolError always carries a readable message"
    return caught.value.code


def test_one_byte_over_the_limit_is_too_large() -> None:
    raw = _padded_ping(MAX_FRAME_BYTES + 1)
    assert _code_of(raw) == "too_large"
    assert _code_of(raw.encode()) == "too_large"


def test_limit_counts_utf8_bytes_not_characters() -> None:
    # 2,000 three-byte characters: well under 4096 characters, well over 4096 bytes.
    raw = json.dumps({"type": "ping", "seq": 1, "pad": "猫" * 2000}, ensure_ascii=False)
    assert len(raw) < MAX_FRAME_BYTES < len(raw.encode())
    assert _code_of(raw) == "too_large"


def test_multibyte_frame_under_the_byte_limit_is_judged_on_content() -> None:
    raw = json.dumps({"type": "ping", "seq": 1, "pad": "猫" * 100}, ensure_ascii=False)
    assert len(raw.encode()) < MAX_FRAME_BYTES
    # Small enough to be parsed, so it fails on the unknown field instead of on size.
    assert _code_of(raw) == "invalid"


def test_none_is_empty() -> None:
    assert _code_of(None) == "empty"


@pytest.mark.parametrize("raw", ["", b""])
def test_empty_text_or_bytes_is_rejected(raw: str | bytes) -> None:
    assert _code_of(raw) in {"empty", "malformed"}


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        pytest.param("hello", "malformed", id="not-json"),
        pytest.param('{"type":"ping","seq":7', "malformed", id="truncated-json"),
        pytest.param('{"type":"ping","seq":7} x', "malformed", id="trailing-garbage"),
        pytest.param(b"\xff\xfe\x00", "malformed", id="invalid-utf8-bytes"),
        pytest.param("[]", "invalid", id="json-array"),
        pytest.param('[{"type":"ping","seq":7}]', "invalid", id="ping-in-array"),
        pytest.param("null", "invalid", id="json-null"),
        pytest.param('"ping"', "invalid", id="json-string"),
        pytest.param("7", "invalid", id="json-number"),
        pytest.param('{"type":"nope","seq":1}', "invalid", id="unknown-type"),
        pytest.param('{"type":"pong","seq":1}', "invalid", id="server-only-type"),
        pytest.param('{"type":"ping"}', "invalid", id="missing-seq"),
        pytest.param('{"type":"ping","seq":"7"}', "invalid", id="seq-as-string"),
        pytest.param('{"type":"ping","seq":7.5}', "invalid", id="seq-as-float"),
        pytest.param('{"type":"ping","seq":true}', "invalid", id="seq-as-bool"),
        pytest.param('{"type":"ping","seq":null}', "invalid", id="seq-null"),
        pytest.param('{"type":"ping","seq":7,"extra":1}', "invalid", id="extra-field"),
        pytest.param('{"type":7,"seq":7}', "invalid", id="type-not-a-string"),
    ],
)
def test_bad_frames_have_stable_codes(raw: str | bytes, code: str) -> None:
    assert _code_of(raw) == code


# About 3 KiB that nest past the interpreter's recursion limit inside msgspec.
DEEP_ARRAY = '{"type":"act","seq":1,"action":' + "[" * 1400 + "]" * 1400 + "}"
DEEP_OBJECT = '{"type":"act","seq":1,"action":' + '[{"":' * 550 + "1" + "}]" * 550 + "}"


@pytest.mark.parametrize(
    "raw", [DEEP_ARRAY, DEEP_ARRAY.encode(), "[" * 3000], ids=["text", "bytes", "bare"]
)
def test_deeply_nested_frames_are_malformed_not_a_crash(raw: str | bytes) -> None:
    assert len(raw) <= MAX_FRAME_BYTES
    assert _code_of(raw) in {"malformed", "invalid"}


def test_deeply_nested_objects_are_malformed_not_a_crash() -> None:
    assert len(DEEP_OBJECT) <= MAX_FRAME_BYTES
    assert _code_of(DEEP_OBJECT) == "malformed"


def test_brackets_inside_a_string_are_not_nesting() -> None:
    # Past the quick count of brackets, and an escaped quote does not end the string: the
    # unknown field is what is wrong, not the depth.
    frame = '{"type":"ping","seq":1,"x":"' + "[" * 100 + '\\"' + "{" * 50 + '"}'
    assert _code_of(frame) == "invalid"


def test_frame_without_type_is_rejected() -> None:
    assert _code_of('{"seq":7}') == "invalid"


def test_protocol_error_becomes_an_error_frame() -> None:
    error = ProtocolError("invalid", "Invalid frame.")
    assert error.frame() == ErrorFrame(code="invalid", message="Invalid frame.")
    assert str(error) == "Invalid frame."


# --------------------------------------------------------------------------------------------
# Server frames


def test_error_frame_encoding() -> None:
    encoded = server_frame_encode(ErrorFrame(code="too_large", message="Too big."))
    assert json.loads(encoded) == {
        "type": "error",
        "code": "too_large",
        "message": "Too big.",
        "seq": None,
    }
    assert encoded == '{"type":"error","code":"too_large","message":"Too big.","seq":null}'


def test_error_frame_encoding_with_seq() -> None:
    encoded = server_frame_encode(ErrorFrame(code="invalid", message="No.", seq=3))
    assert json.loads(encoded) == {"type": "error", "code": "invalid", "message": "No.", "seq": 3}


def test_pong_encoding() -> None:
    assert server_frame_encode(Pong(seq=7)) == '{"type":"pong","seq":7}'


def test_encode_returns_text() -> None:
    assert isinstance(server_frame_encode(Pong(seq=1)), str)


# --------------------------------------------------------------------------------------------
# Fuzzing: whatever a client sends, the only failure is a ProtocolError


def _decode_or_protocol_error(raw: str | bytes) -> Ping | None:
    """The decoded frame, or None after checking the error is a well-formed ProtocolError."""
    error: ProtocolError | None = None
    try:
        return client_frame_decode(raw)
    except ProtocolError as caught:
        error = caught
    assert error is not None
    assert error.code in ERROR_CODES
    assert isinstance(error.message, str)
    assert error.message
    return None


# A WebSocket text frame is valid UTF-8, so it never holds a lone surrogate.
_frame_text = st.text(st.characters(codec="utf-8"), max_size=MAX_FRAME_BYTES + 64)

_json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
_frameish = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["ping", "pong", "error", ""]) | st.text(max_size=6),
        "seq": st.integers() | _json_value,
        "extra": _json_value,
    },
)


@FUZZ
@given(raw=_frame_text)
def test_fuzz_text_only_raises_protocol_error(raw: str) -> None:
    frame = _decode_or_protocol_error(raw)
    if len(raw.encode()) > MAX_FRAME_BYTES:
        assert frame is None


@FUZZ
@given(raw=st.binary(max_size=MAX_FRAME_BYTES + 64))
def test_fuzz_bytes_only_raise_protocol_error(raw: bytes) -> None:
    frame = _decode_or_protocol_error(raw)
    if len(raw) > MAX_FRAME_BYTES:
        assert frame is None


@FUZZ
@given(value=_json_value | _frameish)
def test_fuzz_json_values_only_raise_protocol_error(value: Any) -> None:
    raw = json.dumps(value)
    frame = _decode_or_protocol_error(raw)
    if frame is not None:
        # Whatever is accepted is a well-formed ping carrying the client's integer seq.
        assert isinstance(value, dict)
        assert isinstance(value["seq"], int)
        assert not isinstance(value["seq"], bool)
        assert set(value) <= {"type", "seq"}
        assert frame == Ping(seq=value["seq"])
        # And its answer can always be encoded.
        assert json.loads(server_frame_encode(Pong(seq=frame.seq))) == {
            "type": "pong",
            "seq": value["seq"],
        }


@FUZZ
@given(seq=st.integers(min_value=0, max_value=2**31))
def test_any_valid_seq_round_trips_through_ping_and_pong(seq: int) -> None:
    frame = client_frame_decode(msgspec.json.encode({"type": "ping", "seq": seq}))
    assert frame == Ping(seq=seq)
    assert msgspec.json.decode(server_frame_encode(Pong(seq=seq))) == {"type": "pong", "seq": seq}


@FUZZ
@given(seq=st.one_of(st.integers(max_value=-1), st.integers(min_value=2**31 + 1)))
def test_seq_out_of_range_is_invalid(seq: int) -> None:
    assert _code_of(msgspec.json.encode({"type": "ping", "seq": seq})) == "invalid"


def test_lone_surrogate_is_a_protocol_error() -> None:
    assert _code_of('{"type":"ping","seq":"\ud800"}') == "malformed"


# --------------------------------------------------------------------------------------------
# Commotion's actions


def test_a_commotion_play_decodes_with_its_defaults() -> None:
    frame = client_frame_decode(
        '{"type":"act","seq":3,"action":{"kind":"play","source":"waste","card":0,"pile":-1}}'
    )
    assert isinstance(frame, Act)
    assert action_to_dict(frame.action) == {
        "kind": "play",
        "source": "waste",
        "card": 0,
        "pile": -1,
        "pile_size": -1,
        "rt_ms": 0,
        "rtt_ms": 0,
    }


@pytest.mark.parametrize("kind", ["turn", "out", "extra"])
def test_commotion_moves_without_fields_decode(kind: str) -> None:
    frame = client_frame_decode(json.dumps({"type": "act", "seq": 1, "action": {"kind": kind}}))
    assert isinstance(frame, Act)
    assert action_to_dict(frame.action) == {"kind": kind}


@pytest.mark.parametrize(
    "action",
    [
        pytest.param({"kind": "play", "source": "hand", "card": 0, "pile": 0}, id="bad-source"),
        pytest.param({"kind": "play", "source": "tableau", "card": 0, "pile": -2}, id="pile"),
        pytest.param({"kind": "play", "source": "tableau", "card": 99, "pile": 0}, id="card"),
        pytest.param({"kind": "play", "source": "tableau", "card": 0}, id="no-pile"),
        pytest.param({"kind": "turn", "cards": 3}, id="turn-extra-field"),
    ],
)
def test_bad_commotion_moves_are_invalid(action: dict[str, Any]) -> None:
    assert _code_of(json.dumps({"type": "act", "seq": 1, "action": action})) == "invalid"


# --------------------------------------------------------------------------------------------
# Riff Raff's actions


@pytest.mark.parametrize(
    ("action", "plain"),
    [
        ({"kind": "choose_card", "card": 7}, {"kind": "choose_card", "card": 7}),
        ({"kind": "pick_captain", "seat": 2}, {"kind": "pick_captain", "seat": 2}),
        ({"kind": "order", "seats": [2, 0]}, {"kind": "order", "seats": [2, 0]}),
        ({"kind": "declare", "pieces": 2}, {"kind": "declare", "pieces": 2}),
        (
            {"kind": "drop", "piece": 12, "x": -17.5},
            {"kind": "drop", "piece": 12, "x": -17.5, "angle": 0.0, "y": None},
        ),
        # The release height, which tells areas 5, 7 and 9 apart.
        (
            {"kind": "drop", "piece": 12, "x": -17.5, "y": 80.5},
            {"kind": "drop", "piece": 12, "x": -17.5, "angle": 0.0, "y": 80.5},
        ),
        (
            {"kind": "catch", "piece": 3, "rt_ms": 480},
            {"kind": "catch", "piece": 3, "rt_ms": 480, "rtt_ms": 0},
        ),
    ],
)
def test_riff_raff_moves_decode(action: dict[str, Any], plain: dict[str, Any]) -> None:
    frame = client_frame_decode(json.dumps({"type": "act", "seq": 1, "action": action}))
    assert isinstance(frame, Act)
    assert action_to_dict(frame.action) == plain


@pytest.mark.parametrize(
    "action",
    [
        pytest.param({"kind": "choose_card", "card": 11}, id="card-11"),
        pytest.param({"kind": "choose_card", "card": 0}, id="card-0"),
        pytest.param({"kind": "declare", "pieces": 3}, id="declare-3"),
        pytest.param({"kind": "order", "seats": []}, id="order-empty"),
        pytest.param({"kind": "drop", "piece": 1, "x": 1e9}, id="drop-far"),
        pytest.param({"kind": "drop", "piece": 1, "x": "left"}, id="drop-x-text"),
        pytest.param({"kind": "drop", "piece": 1, "x": 0, "angle": 99}, id="drop-angle"),
        pytest.param({"kind": "catch", "piece": 1}, id="catch-no-rt"),
    ],
)
def test_bad_riff_raff_moves_are_invalid(action: dict[str, Any]) -> None:
    assert _code_of(json.dumps({"type": "act", "seq": 1, "action": action})) == "invalid"


def test_the_round_trip_a_tablet_reports_never_reaches_the_engine() -> None:
    frame = client_frame_decode(
        '{"type":"act","seq":3,"action":{"kind":"slap","flip":2,"rt_ms":9000,"rtt_ms":10000}}'
    )
    assert isinstance(frame, Act)
    assert action_to_dict(frame.action) == {"kind": "slap", "flip": 2, "rt_ms": 9000, "rtt_ms": 0}
