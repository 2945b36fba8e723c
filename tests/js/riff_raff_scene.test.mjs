import assert from "node:assert/strict";
import { test } from "node:test";

import { percentile } from "../../static/js/riff_raff_scene.js";

// The scene's smoothing delay follows the 98th percentile of how late frames arrive.
test("the percentile of arrival lags, by rank", () => {
  const lags = Array.from({ length: 100 }, (_, i) => 100 - i);  // 100 down to 1
  assert.equal(percentile(lags, 0.98), 99);
  assert.equal(percentile(lags, 0), 1);
  assert.equal(percentile(lags, 1), 100);
});

test("no lags measured: no delay from them", () => {
  assert.equal(percentile([], 0.98), 0);
});

test("the lags given are left as they were", () => {
  const lags = [30, 10, 20];
  percentile(lags, 0.5);
  assert.deepEqual(lags, [30, 10, 20]);
});
