import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { ANSWER_WITHIN_MS, isRace, RACES, sortOut } from "../../static/js/lib/offline_inputs.js";

test("the races are the inputs decided by who is first or by a passing moment", () => {
  assert.deepEqual([...RACES].sort(), ["catch", "claim", "play", "slap"]);
  ["flip", "choose", "turn", "out", "extra", "choose_card", "pick_captain", "order", "declare", "drop"]
    .forEach((kind) => assert.equal(isRace(kind), false, kind));
  RACES.forEach((kind) => assert.equal(isRace(kind), true, kind));
});

test("a tap is answered within the issue's 300 ms", () => {
  assert.ok(ANSWER_WITHIN_MS <= 300, ANSWER_WITHIN_MS);
  assert.ok(ANSWER_WITHIN_MS >= 100, ANSWER_WITHIN_MS);  // not a slow but healthy link
});

test("a race the server has not got is dropped and told; a kept input is kept", () => {
  const sorted = sortOut({
    3: { kind: "slap", saving: false, told: false },
    4: { kind: "flip", saving: false, told: false },
  });
  assert.deepEqual(sorted.dropped, ["3"]);
  assert.deepEqual(sorted.kept, ["4"]);
  assert.equal(sorted.tell, "race");
});

test("a race the server said it has (pending) is kept: it is being stored", () => {
  const sorted = sortOut({ 7: { kind: "play", saving: true, told: false } });
  assert.deepEqual(sorted.dropped, []);
  assert.deepEqual(sorted.kept, ["7"]);
  assert.equal(sorted.tell, "kept");
});

test("each input is told of once; nothing unanswered, nothing to tell", () => {
  assert.equal(sortOut({ 4: { kind: "flip", saving: false, told: true } }).tell, "");
  assert.deepEqual(sortOut({}), { dropped: [], kept: [], tell: "" });
  // A race already told (made offline) is never in the list: it was never kept.
  assert.equal(sortOut({ 5: { kind: "catch", saving: false, told: false }, 6: { kind: "drop", saving: false, told: true } }).tell, "race");
});

test("the README's promise names these races and this answer time", () => {
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");
  assert.ok(readme.includes("A tap the server does not answer within " + ANSWER_WITHIN_MS + " ms"));
  assert.ok(readme.includes(
    "A race made while the link is down or in doubt (a Palm Strike slap or claim, a Commotion play on the"
    + " centre piles, a Riff Raff catch) is dropped",
  ));
  assert.equal(RACES.length, 4);  // slap, claim, play, catch: the four the sentence names
});
