"""Is a reaction time a tablet reports believable? One rule for every game (pure).

The tablet measures the reaction time on its own clock, from the first frame the stimulus is
drawn whole to the tap. The server knows two things of its own: when it made the stimulus
and when the response reached the table's host, so the stimulus's *age* at that moment
(game time), and the round trip it measured to that tablet itself (``rtt_ms``: its own probes
of the socket, plus the time the input waited in the host's inbox; see
``games.live.round_trip`` and ``games.live.host``). The age is made of the delivery (the log
write, the way to the tablet, drawing), the reaction time and the way back. So a reported
reaction time is plausible when it is

* at least ``floor_ms`` (the game's human floor: faster is an anticipation);
* at most ``age + rtt + slack_ms``: nobody watches a stimulus for longer than it has
  existed (``slack_ms``: frame timing and clock granularity on the tablet);
* at least ``age - rtt - LAG_SLACK_MS``: the part of the age that neither the round trip nor
  the delivery explains was spent reacting, so a tablet that reports less is claiming speed
  it did not show (a forged figure, or a stimulus it saw late because it was away).

The round trip is never the tablet's own figure: a forged one (up to ten seconds) would
widen both bounds at will.
"""

from __future__ import annotations

# What the server cannot see of the delivery: storing the change before it is sent, the
# tablet drawing it (two animation frames), its input dispatch and the round trip's jitter
# around the server's estimate. Generous, so a slow tablet on honest Wi-Fi is never flagged;
# a reported time that much shorter than the arrival allows is not a reaction time.
LAG_SLACK_MS = 300


def rt_plausible(rt_ms: int, *, age_ms: int, rtt_ms: int, floor_ms: int, slack_ms: int) -> bool:
    """Whether ``rt_ms`` fits the stimulus's age at arrival (see the module docstring)."""
    if rt_ms < floor_ms:
        return False
    if rt_ms > age_ms + rtt_ms + slack_ms:
        return False
    return rt_ms >= age_ms - rtt_ms - LAG_SLACK_MS
