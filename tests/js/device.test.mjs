import assert from "node:assert/strict";
import { test } from "node:test";

import { csrfToken, deviceFields, frameIntervalMs, measureFrameInterval } from "../../static/js/lib/device.js";

test("the frame interval is the median delta, to 0.1 ms", () => {
  assert.equal(frameIntervalMs([0, 16.7, 33.3, 50, 66.7]), 16.7);
  // One late frame (a page still loading) does not move it.
  assert.equal(frameIntervalMs([0, 8.3, 16.6, 100, 108.3, 116.6]), 8.3);
  assert.equal(frameIntervalMs([0, 10, 30]), 15);
});

test("fewer than two frame times give no interval", () => {
  assert.equal(frameIntervalMs([]), null);
  assert.equal(frameIntervalMs([5]), null);
});

test("measuring asks for count + 1 frames and gives their interval", async () => {
  let now = 0;
  let asked = 0;
  const requestFrame = (callback) => {
    asked += 1;
    now += 16.7;
    queueMicrotask(() => callback(now));
  };
  const interval = await measureFrameInterval(requestFrame, 10);
  assert.equal(asked, 11);
  assert.equal(interval, 16.7);
});

test("a device report is whole CSS pixels and the interval", () => {
  assert.deepEqual(deviceFields({ width: 1024.4, height: 767.6 }, 16.7), {
    screen_width: "1024",
    screen_height: "768",
    frame_interval_ms: "16.7",
  });
});

test("the CSRF token comes from the body's htmx headers, or is empty", () => {
  const body = (value) => ({ getAttribute: () => value });
  assert.equal(csrfToken(body('{"X-CSRFToken": "abc"}')), "abc");
  assert.equal(csrfToken(body(null)), "");
  assert.equal(csrfToken(body("{not json")), "");
});
