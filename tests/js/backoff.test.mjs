import assert from "node:assert/strict";
import { test } from "node:test";

import { backoffMs } from "../../static/js/lib/backoff.js";

const TABLET = { firstMs: 500, maxMs: 8000 };

test("half to all of a ceiling that doubles with each attempt", () => {
  assert.equal(backoffMs(0, TABLET, () => 0), 250);
  assert.equal(backoffMs(0, TABLET, () => 1), 500);
  assert.equal(backoffMs(1, TABLET, () => 0), 500);
  assert.equal(backoffMs(3, TABLET, () => 0.5), 3000);  // ceiling 4 s
});

test("the ceiling stops doubling at maxMs", () => {
  assert.equal(backoffMs(4, TABLET, () => 1), 8000);
  assert.equal(backoffMs(40, TABLET, () => 1), 8000);
  assert.equal(backoffMs(40, TABLET, () => 0), 4000);
});

test("without a random source given, the wait stays within its half of the ceiling", () => {
  for (let i = 0; i < 100; i += 1) {
    const wait = backoffMs(2, { firstMs: 250, maxMs: 1000 });
    assert.ok(wait >= 500 && wait <= 1000, String(wait));
  }
});
