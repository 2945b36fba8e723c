import assert from "node:assert/strict";
import { test } from "node:test";

import { FOREPERIOD_MIN_MS, FOREPERIOD_SPAN_MS, foreperiodMs, reactionMs, rtsField } from "../../static/js/lib/warmup.js";

test("the wait before a card spans 0.8 to 2 s", () => {
  assert.equal(foreperiodMs(() => 0), FOREPERIOD_MIN_MS);
  assert.equal(foreperiodMs(() => 0.999999), FOREPERIOD_MIN_MS + FOREPERIOD_SPAN_MS - 1);
  assert.equal(foreperiodMs(() => 0.5), 1400);
});

test("an RT is whole ms from the onset, never negative", () => {
  assert.equal(reactionMs(1000.2, 1312.7), 313);
  assert.equal(reactionMs(1000, 990), 0);
});

test("the RTs field leaves an untapped card empty", () => {
  assert.equal(rtsField([310, null, 290]), "310,,290");
  assert.equal(rtsField([]), "");
});
