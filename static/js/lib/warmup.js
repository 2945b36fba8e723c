// The warm-up's timing and what it sends: a simple-reaction task (tap when the card appears)
// whose median RT is the child's seeing-and-tapping time on this tablet
// (classroom/analytics/decision_time.py).

// The wait before each card: uniform over 0.8-2 s, so the card's moment cannot be foreseen
// and a child who taps on a rhythm taps too soon.
export const FOREPERIOD_MIN_MS = 800;
export const FOREPERIOD_SPAN_MS = 1200;

export function foreperiodMs(random) {
  return FOREPERIOD_MIN_MS + Math.floor(random() * FOREPERIOD_SPAN_MS);
}

// An RT from the onset (performance.now() of the frame that showed the card) and the tap's
// event time; whole ms, never negative.
export function reactionMs(onset, tapTime) {
  return Math.max(0, Math.round(tapTime - onset));
}

// The RTs as the form field: comma-separated, an untapped card empty.
export function rtsField(rts) {
  return rts.map((rt) => (rt === null ? "" : String(rt))).join(",");
}
