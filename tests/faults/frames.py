"""Hypothesis strategies for hostile client frames, each paired with the answer it must get.

The answer is worked out from how the frame was *built* (a wrong type, an unknown kind, an
oversize body ...), not by asking the protocol module, so the fuzz test checks the server
against the wire contract in ARCHITECTURE.md rather than against itself.

Answers, as the table socket gives them:

- ``("pong", seq)`` for a ping, ``("state",)`` for a sync;
- ``("ack", seq)`` for an input already in the log (a replayed client id);
- ``("error", seq, "rejected")`` for a well-formed input the game refuses;
- ``("error", None, "bad")`` for anything not a frame (codes invalid / malformed / empty);
- ``("error", None, "too_large")`` for anything over 4 KiB.

The frames are built for a Palm Strike table that stands still between two flips, seen from
a seat whose turn it is not, so no well-formed input can be accepted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

LIMIT_BYTES = 4096
MAX_SEQ = 2**31

Answer = tuple[Any, ...]


@dataclass(frozen=True)
class Fuzzed:
    """One frame to send (text or binary) and the answer the table socket owes it."""

    label: str
    text: str | None
    data: bytes | None
    answer: Answer

    def size(self) -> int:
        return len(self.data) if self.data is not None else len(self.text or "")


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


# -- pieces ------------------------------------------------------------------------------------

seqs = st.integers(0, MAX_SEQ)
# Anything a JSON int field must refuse: msgspec is strict (no floats, bools or strings).
bad_ints = st.one_of(
    st.integers(max_value=-1),
    st.integers(min_value=MAX_SEQ + 1, max_value=2**70),
    st.floats(),
    st.booleans(),
    st.none(),
    st.text(max_size=6),
    st.lists(st.integers(0, 9), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
# For a "type" or "kind": anything but a string (bad_ints' strings are too short to be names).
not_a_name = bad_ints.filter(lambda value: not isinstance(value, str))
fresh_cids = st.from_regex(r"\Azz[A-Za-z0-9:_-]{1,20}\Z")
bad_cids = st.one_of(
    st.just(""),
    st.text(min_size=65, max_size=80, alphabet="abc"),
    st.text(min_size=1, max_size=10).filter(lambda text: any(not _cid_char(c) for c in text)),
    st.integers(),
    st.booleans(),
    st.lists(st.text(max_size=3), max_size=2),
)


def _cid_char(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char in ":_-")


def _ranged(low: int, high: int) -> st.SearchStrategy[int]:
    return st.integers(low, high)


def _optional(
    required: dict[str, st.SearchStrategy[Any]], optional: dict[str, st.SearchStrategy[Any]]
) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(required, optional=optional)


# Every action kind the wire schema knows, with in-range fields. At a still Palm Strike table,
# from a seat whose turn it is not, the engine refuses every one of them: a flip is out of
# turn, flip 1 has closed and later flips have not happened, nobody is choosing, team mode is
# off, and the other games' moves are not Palm Strike moves.
_rt = {"rt_ms": _ranged(0, 60_000)}
_rtt = {"rtt_ms": _ranged(0, 10_000)}
ACTIONS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "flip": st.just({}),
    "slap": _optional({"flip": _ranged(1, 100_000), **_rt}, _rtt),
    "choose": _optional({"card": _ranged(0, 63)}, {}),
    "claim": _optional({"flip": _ranged(1, 100_000), "card": _ranged(0, 63), **_rt}, _rtt),
    "play": _optional(
        {
            "source": st.sampled_from(["tableau", "waste"]),
            "card": _ranged(0, 63),
            "pile": _ranged(-1, 511),
        },
        {"pile_size": _ranged(-1, 64), **_rt, **_rtt},
    ),
    "turn": st.just({}),
    "out": st.just({}),
    "extra": st.just({}),
    "choose_card": _optional({"card": _ranged(1, 10)}, {}),
    # Naming another seat: the seat is the socket's, never the frame's.
    "pick_captain": _optional({"seat": _ranged(0, 15)}, {}),
    "order": _optional({"seats": st.lists(_ranged(0, 15), min_size=1, max_size=16)}, {}),
    "declare": _optional({"pieces": st.sampled_from([1, 2])}, {}),
    "drop": _optional(
        {"piece": _ranged(0, 9_999), "x": st.floats(-500, 500)},
        {"angle": st.floats(-7, 7)},
    ),
    "catch": _optional({"piece": _ranged(0, 9_999), **_rt}, _rtt),
}
KINDS = sorted(ACTIONS)


@st.composite
def valid_actions(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(KINDS))
    return {"kind": kind, **draw(ACTIONS[kind])}


@st.composite
def invalid_actions(draw: st.DrawFn) -> tuple[str, Any]:
    """An action the schema refuses, and why (for failure messages)."""
    action = draw(valid_actions())
    how = draw(
        st.sampled_from(
            ["unknown_kind", "no_kind", "other_seat", "extra_field", "wrong_type", "not_object"]
        )
    )
    if how == "unknown_kind":
        action["kind"] = draw(st.text(max_size=12).filter(lambda kind: kind not in ACTIONS))
    elif how == "no_kind":
        del action["kind"]
    elif how == "other_seat":
        # "Slap for seat 2": seats are never named in an input, so the field itself is refused.
        field = draw(st.sampled_from(["seat", "you", "player", "as_seat", "seat_id"]))
        action[field] = draw(_ranged(0, 15))
        if action["kind"] == "pick_captain" and field == "seat":
            action["as_seat"] = 1  # pick_captain has a seat field; make it invalid elsewhere
    elif how == "extra_field":
        # Prefixed, so never one of the action's own optional fields.
        name = "x_" + draw(st.text(max_size=8))
        action[name] = draw(st.integers() | st.text(max_size=4) | st.none())
    elif how == "wrong_type":
        fields = [name for name in action if name != "kind"]
        if not fields:
            action["kind"] = draw(not_a_name)  # the kind itself is the wrong type
        else:
            action[draw(st.sampled_from(fields))] = draw(_wrong_for_field())
    else:
        action = draw(st.one_of(st.lists(st.integers(), max_size=3), st.text(max_size=8)))
    return how, action


def _wrong_for_field() -> st.SearchStrategy[Any]:
    # Wrong for every action field: none of them accepts a string, null, list or object, and
    # no int field accepts a float or bool. (Float fields do accept ints, so no ints here.)
    return st.one_of(
        st.text(max_size=6).filter(lambda text: text not in {"tableau", "waste"}),
        st.none(),
        st.booleans(),
        st.lists(st.text(max_size=2), min_size=1, max_size=3),
        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        st.just(1e12),  # a float far out of every range, int or float
    )


# -- whole frames ------------------------------------------------------------------------------


def _text(label: str, value: object, answer: Answer) -> Fuzzed:
    return Fuzzed(label, _dumps(value), None, answer)


@st.composite
def pings(draw: st.DrawFn) -> Fuzzed:
    seq = draw(seqs)
    return _text("ping", {"type": "ping", "seq": seq}, ("pong", seq))


@st.composite
def syncs(draw: st.DrawFn) -> Fuzzed:
    return _text("sync", {"type": "sync", "seq": draw(seqs)}, ("state",))


@st.composite
def refused_acts(draw: st.DrawFn) -> Fuzzed:
    """Well-formed inputs the game must refuse (out of turn, closed flip, another game...)."""
    seq = draw(seqs)
    frame: dict[str, Any] = {"type": "act", "seq": seq, "action": draw(valid_actions())}
    cid = draw(st.none() | fresh_cids | st.just("absent"))
    if cid != "absent":
        frame["cid"] = cid
    return _text(f"refused:{frame['action']['kind']}", frame, ("error", seq, "rejected"))


@st.composite
def replayed_acts(draw: st.DrawFn, old_cid: str) -> Fuzzed:
    """An input whose client id is already in the log: acknowledged, never applied again."""
    seq = draw(seqs)
    frame = {"type": "act", "seq": seq, "action": draw(valid_actions()), "cid": old_cid}
    return _text("replayed", frame, ("ack", seq))


@st.composite
def malformed_acts(draw: st.DrawFn) -> Fuzzed:
    how, action = draw(invalid_actions())
    frame = {"type": "act", "seq": draw(seqs), "action": action}
    return _text(f"bad_action:{how}", frame, ("error", None, "bad"))


@st.composite
def malformed_frames(draw: st.DrawFn) -> Fuzzed:
    """Envelopes the schema refuses: wrong types, unknown types, missing or extra fields."""
    kind = draw(st.sampled_from(["ping", "sync", "act"]))
    base: dict[str, Any] = {"type": kind, "seq": draw(seqs)}
    if kind == "act":
        base["action"] = draw(valid_actions())
    how = draw(
        st.sampled_from(
            [
                "bad_seq",
                "no_seq",
                "unknown_type",
                "type_not_string",
                "no_type",
                "extra_field",
                "bad_cid",
                "no_action",
                "not_object",
            ]
        )
    )
    if how == "bad_seq":
        base["seq"] = draw(bad_ints)
    elif how == "no_seq":
        del base["seq"]
    elif how == "unknown_type":
        base["type"] = draw(
            st.text(max_size=10).filter(lambda name: name not in {"ping", "sync", "act"})
        )
    elif how == "type_not_string":
        base["type"] = draw(not_a_name)
    elif how == "no_type":
        del base["type"]
    elif how == "extra_field":
        # Among them "seat": a frame may not say which seat it speaks for.
        name = draw(st.sampled_from(["seat", "table", "version", "at_ms"]) | st.text(max_size=6))
        if name in base or (kind == "act" and name == "cid"):
            name = "seat"
        base[name] = draw(st.integers() | st.text(max_size=4))
    elif how == "bad_cid":
        base["type"] = "act"
        base.setdefault("action", draw(valid_actions()))
        base["cid"] = draw(bad_cids)
    elif how == "no_action":
        base["type"] = "act"
        base.pop("action", None)
    else:
        top = st.one_of(st.lists(st.integers(), max_size=3), st.integers(), st.text(), st.none())
        return _text("not_object", draw(top), ("error", None, "bad"))
    return _text(f"bad_frame:{how}", base, ("error", None, "bad"))


def _bytes_answer(data: bytes) -> Answer:
    return ("error", None, "too_large" if len(data) > LIMIT_BYTES else "bad")


@st.composite
def junk_text(draw: st.DrawFn) -> Fuzzed:
    """Random text, lone surrogates included (only an in-process socket can carry those)."""
    text = draw(
        st.text(st.characters(codec=None, exclude_categories=()), max_size=64)
        | st.text(alphabet='{}[]":,0123456789 tpyengis\\', max_size=40)
    )
    # Without a "type" key nothing can be a frame; keep it out by construction.
    text = text.replace('"type"', '"tipe"')
    try:
        data = text.encode()
    except UnicodeEncodeError:
        return Fuzzed("junk_text:surrogate", text, None, ("error", None, "bad"))
    if not data:
        # An empty text message cannot be told from a binary one in ASGI; send it as bytes.
        return Fuzzed("junk_text:empty", None, b"", ("error", None, "bad"))
    return Fuzzed("junk_text", text, None, _bytes_answer(data))


@st.composite
def junk_bytes(draw: st.DrawFn) -> Fuzzed:
    data = draw(st.binary(max_size=64)).replace(b'"type"', b'"tipe"')
    return Fuzzed("junk_bytes", None, data, _bytes_answer(data))


@st.composite
def binary_frames(draw: st.DrawFn) -> Fuzzed:
    """A good frame in a binary message: the protocol reads the bytes as it reads text."""
    inner = draw(pings() | syncs() | refused_acts())
    assert inner.text is not None
    return Fuzzed(f"binary:{inner.label}", None, inner.text.encode(), inner.answer)


@st.composite
def sized_frames(draw: st.DrawFn) -> Fuzzed:
    """A good ping padded with whitespace or a padding field to around the 4 KiB limit.

    Up to the limit a whitespace-padded ping is still a ping; past it every frame is refused
    unread, however good it is. A padding *field* is refused either way (unknown field).
    """
    seq = draw(seqs)
    core = _dumps({"type": "ping", "seq": seq})
    size = draw(st.integers(LIMIT_BYTES - 64, LIMIT_BYTES + 64) | st.integers(4097, 40_000))
    if draw(st.booleans()):
        text = core + " " * max(0, size - len(core))
        answer: Answer = ("pong", seq) if len(text) <= LIMIT_BYTES else ("error", None, "too_large")
        return Fuzzed("sized:whitespace", text, None, answer)
    pad = "x" * max(0, size - len(core) - len(',"pad":""'))
    text = _dumps({"type": "ping", "seq": seq, "pad": pad})
    code = "too_large" if len(text.encode()) > LIMIT_BYTES else "bad"
    return Fuzzed("sized:field", text, None, ("error", None, code))


def frames(old_cid: str) -> st.SearchStrategy[Fuzzed]:
    """Any hostile (or, now and then, good) frame, weighted towards the hostile ones."""
    return st.one_of(
        junk_text(),
        junk_bytes(),
        malformed_frames(),
        malformed_frames(),
        malformed_acts(),
        malformed_acts(),
        refused_acts(),
        refused_acts(),
        replayed_acts(old_cid),
        sized_frames(),
        binary_frames(),
        pings(),
        syncs(),
    )
