"""The round trip to one tablet, as the server measures it itself.

Reaction times are judged against the stimulus's age when the response arrives
(``games.engine.reaction``), and that age holds the round trip. The tablet's own figure
(``rtt_ms`` in its frames) is never used: a forged one would widen the bounds at will. So the
server times its own probes: every ``PROBE_EVERY_MS`` (the socket's heartbeat,
games.live.heartbeat) it sends ``{"type": "probe", "seq": n}`` and the tablet answers at once
with a ping of that ``seq`` (static/js/lib/table_socket.js). Probe numbers start at
``PROBE_SEQ_BASE``, far above any number a tablet gives its own frames, so an echo is never
taken for the tablet's own ping.

The estimate is the median of the last few samples: one slow answer does not move it, and a
tablet that answers nothing has a round trip of 0, which judges its times strictly. (A tablet
can only make its echoes slower, never faster, than the link; the lag slack of
``games.engine.reaction`` bounds what it could gain by that.) Pure: time comes in as an argument.
"""

from __future__ import annotations

from collections import deque
from typing import Final

import msgspec

# Far above a tablet's own frame numbers (one a second would take 34 years to get here) and
# inside the wire schema's range (games.live.protocol.Seq).
PROBE_SEQ_BASE: Final = 1 << 30
PROBE_SEQ_END: Final = 1 << 31
PROBE_EVERY_MS: Final = 2000
SAMPLES: Final = 5
# The wire schema's limit for a round trip: an engine never gets more.
MAX_RTT_MS: Final = 10_000
# Probes not answered after this many newer ones are forgotten (the tablet does not echo).
OUTSTANDING: Final = 4


class Probe(msgspec.Struct, tag="probe", tag_field="type"):
    """Server → tablet: "answer with a ping of this seq, now"."""

    seq: int


_encoder: Final = msgspec.json.Encoder()


class RoundTrip:
    """Probes sent to one socket and the round trips their echoes showed (wall ms)."""

    def __init__(self) -> None:
        self._sent: dict[int, int] = {}
        self._samples: deque[int] = deque(maxlen=SAMPLES)
        self._next_seq = PROBE_SEQ_BASE

    def probe(self, now_ms: int) -> str:
        """The probe frame to send now (its time is remembered)."""
        seq = self._next_seq
        self._next_seq = seq + 1 if seq + 1 < PROBE_SEQ_END else PROBE_SEQ_BASE
        self._sent[seq] = now_ms
        while len(self._sent) > OUTSTANDING:
            del self._sent[next(iter(self._sent))]
        return _encoder.encode(Probe(seq=seq)).decode()

    def echoed(self, seq: int, now_ms: int) -> bool:
        """A ping of ``seq`` came in: True when it answers a probe (its round trip is kept)."""
        sent = self._sent.pop(seq, None)
        if sent is None:
            return seq >= PROBE_SEQ_BASE  # a late echo of a forgotten probe: still not a ping
        self._samples.append(max(0, now_ms - sent))
        return True

    def estimate_ms(self) -> int:
        """The round trip to use now: the median of the recent samples (0 before any)."""
        if not self._samples:
            return 0
        ordered = sorted(self._samples)
        return min(MAX_RTT_MS, ordered[len(ordered) // 2])
