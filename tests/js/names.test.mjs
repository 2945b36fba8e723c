import assert from "node:assert/strict";
import { test } from "node:test";

import { seatNames } from "../../static/js/lib/names.js";

function labels() {
  return { names: { 0: "Ava", 2: "Chen" }, player_n: "Player %(n)s", robot: "Robot" };
}

test("a seat is called by the class list's name", () => {
  const { seatName } = seatNames(labels());
  assert.equal(seatName(0), "Ava");
  assert.equal(seatName(2), "Chen");
});

test("a seat without a name is Player n, counted from one", () => {
  const { seatName } = seatNames(labels());
  assert.equal(seatName(1), "Player 2");
});

test("a seat a robot took over is called the robot at once", () => {
  const { seatName, forgetRemoved } = seatNames(labels());
  forgetRemoved([{ kind: "flip" }, { kind: "bot_takeover", seat: 2 }]);
  assert.equal(seatName(2), "Robot");
  assert.equal(seatName(0), "Ava");
});

test("no events change no name", () => {
  const { seatName, forgetRemoved } = seatNames(labels());
  forgetRemoved(undefined);
  forgetRemoved([]);
  assert.equal(seatName(2), "Chen");
});
