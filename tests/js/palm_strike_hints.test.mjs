import assert from "node:assert/strict";
import { test } from "node:test";

import { tapHint } from "../../static/js/palm_strike_hints.js";

const table = { phase: "waiting_flip", active_seat: 1, you: 0, paused: false, team_mode: false, choice: null };

test("while a card is open, a tap elsewhere points at the big card", () => {
  assert.deepEqual(tapHint({ ...table, phase: "open" }, "tap"), { key: "slap_big_card", icon: "hand" });
  assert.deepEqual(tapHint({ ...table, phase: "open", team_mode: true }, "auto"), { key: "team_hint", icon: "hand" });
});

test("between cards, the flipper is told to flip and everyone else whose turn it is", () => {
  assert.deepEqual(tapHint({ ...table, active_seat: 0 }, "tap"), { key: "your_flip", icon: "hand" });
  assert.deepEqual(tapHint(table, "tap"), { key: "not_your_turn", icon: "hand", name: 1 });
  assert.deepEqual(tapHint(table, "auto"), { key: "wait_flip", icon: "clock" });
  assert.deepEqual(tapHint({ ...table, phase: "round_over" }, "tap"), { key: "wait_flip", icon: "clock" });
});

test("a choice to make is said again; someone else's is waited for", () => {
  const give = { reason: "give", to_seat: 2 };
  assert.deepEqual(tapHint({ ...table, phase: "choosing", choice: give }, "tap"), { key: "choose_give", icon: "hand", name: 2 });
  assert.deepEqual(tapHint({ ...table, phase: "choosing", choice: { reason: "return" } }, "tap").key, "choose_return");
  assert.deepEqual(tapHint({ ...table, phase: "choosing", choice: { reason: "player" } }, "tap").key, "choose_player");
  assert.deepEqual(tapHint({ ...table, phase: "choosing" }, "tap"), { key: "waiting_choice", icon: "clock" });
});

test("paused comes first; a finished game needs no hint", () => {
  assert.deepEqual(tapHint({ ...table, phase: "open", paused: true }, "tap"), { key: "paused_tap", icon: "pause" });
  assert.equal(tapHint({ ...table, phase: "game_over" }, "tap"), null);
  assert.equal(tapHint(null, "tap"), null);
});
