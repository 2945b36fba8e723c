import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";

import {
  ANSWER_WITHIN_MS, LOST_AFTER_MS, PING_EVERY_MS, QUIET_PING_MS, start,
} from "../../static/js/lib/heartbeat.js";

// One clock for the page's intervals and performance.now(), moved by hand.
let now = 0;
let intervals = new Map();
beforeEach(() => {
  now = 0;
  intervals = new Map();
  let nextId = 1;
  mock.method(performance, "now", () => now);
  mock.method(globalThis, "setInterval", (callback, every) => {
    const id = nextId++;
    intervals.set(id, { callback, every, due: now + every });
    return id;
  });
  mock.method(globalThis, "clearInterval", (id) => { intervals.delete(id); });
});
afterEach(() => {
  mock.restoreAll();
});

// Runs every interval that falls due within the next `ms`, in time order.
function pass(ms) {
  const end = now + ms;
  for (;;) {
    const next = [...intervals.values()].filter((i) => i.due <= end).sort((a, b) => a.due - b.due)[0];
    if (!next) break;
    now = next.due;
    next.due += next.every;
    next.callback();
  }
  now = end;
}

test("a page pings every PING_EVERY_MS", () => {
  let pings = 0;
  const beat = start(() => { pings += 1; }, () => {});
  pass(250);
  assert.equal(pings, 1);
  beat.heard();
  pass(PING_EVERY_MS - 250);
  assert.equal(pings, 1);
  beat.heard();
  pass(250);
  assert.equal(pings, 2);
  beat.stop();
});

test("a link that answers nothing is lost once, after LOST_AFTER_MS", () => {
  let lost = 0;
  start(() => {}, () => { lost += 1; });
  pass(LOST_AFTER_MS - 250);
  assert.equal(lost, 0);
  pass(Math.max(250, ANSWER_WITHIN_MS));
  assert.equal(lost, 1);
  pass(10 * LOST_AFTER_MS);
  assert.equal(lost, 1);
});

test("a link that keeps answering is never lost", () => {
  let lost = 0;
  const beat = start(() => {}, () => { lost += 1; });
  for (let second = 0; second < 30; second += 1) {
    pass(1000);
    beat.heard();
  }
  assert.equal(lost, 0);
  beat.stop();
});

test("a probed page pings only after QUIET_PING_MS with nothing heard", () => {
  let pings = 0;
  const beat = start(() => { pings += 1; }, () => {}, { probed: true });
  for (let probe = 0; probe < 10; probe += 1) {
    pass(QUIET_PING_MS - 500);
    beat.heard();  // the server's probe, every 2 s
  }
  assert.equal(pings, 0);
  pass(QUIET_PING_MS);
  assert.equal(pings, 1);
  beat.stop();
});
