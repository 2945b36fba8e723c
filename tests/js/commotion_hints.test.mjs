import assert from "node:assert/strict";
import { test } from "node:test";

import { nextMove, tapHint } from "../../static/js/commotion_hints.js";

function table(extra) {
  return {
    phase: "playing", paused: false, ended: false, you: 0,
    players: [{ seat: 0, stock: 6, waste: 0 }, { seat: 1, stock: 3, waste: 2 }],
    playable: [], you_can_out: false, you_can_extra: false,
    ...extra,
  };
}

test("before GO and while paused every tap is told to wait", () => {
  for (const tap of ["card", "pile", "stock", "others", "waste", "centre"]) {
    assert.equal(tapHint(table({ phase: "countdown" }), tap, false), "hint_wait_go");
    assert.equal(tapHint(table({ paused: true }), tap, false), "paused");
  }
});

test("a pile tapped with no card picked up asks for a card first", () => {
  assert.equal(tapHint(table(), "pile", false), "hint_card_first");
  assert.equal(tapHint(table(), "centre", false), "hint_card_first");
});

test("with a card picked up a pile plays it; the space between piles asks for a pile", () => {
  assert.equal(tapHint(table(), "pile", true), "");
  assert.equal(tapHint(table(), "centre", true), "hint_pile");
});

test("the child's own card is picked up, not answered", () => {
  assert.equal(tapHint(table(), "card", false), "");
});

test("the stock while a row card fits says to play that card first", () => {
  const fits = table({ playable: [{ source: "tableau", card: 2, piles: [0] }] });
  assert.equal(tapHint(fits, "stock", false), "hint_row_first");
  // The waste top fitting does not stop a turn: the rule is about the row.
  const wasteFits = table({ playable: [{ source: "waste", card: 0, piles: [0] }] });
  assert.equal(tapHint(wasteFits, "stock", false), "");
});

test("an empty stock and waste point at the move there is", () => {
  const empty = { players: [{ seat: 0, stock: 0, waste: 0 }] };
  assert.equal(tapHint(table({ ...empty, you_can_extra: true }), "stock", false), "hint_extra");
  assert.equal(tapHint(table({ ...empty, you_can_out: true }), "stock", false), "hint_out");
  assert.equal(tapHint(table(empty), "stock", false), "hint_wait");
});

test("another player's cards are not the child's to play", () => {
  assert.equal(tapHint(table(), "others", false), "hint_not_yours");
});

test("the next move: OUT, then a fitting card, a 6th card, the stock, or wait", () => {
  assert.equal(nextMove(table({ you_can_out: true, playable: [{ source: "tableau" }] })), "hint_out");
  assert.equal(nextMove(table({ playable: [{ source: "waste" }], you_can_extra: true })), "hint_green");
  assert.equal(nextMove(table({ you_can_extra: true })), "hint_extra");
  assert.equal(nextMove(table()), "hint_turn");
  assert.equal(nextMove(table({ players: [{ seat: 0, stock: 0, waste: 0 }] })), "hint_wait");
  assert.equal(tapHint(table(), "waste", false), "hint_turn");
});

test("no view yet, or a round that is over: nothing to say", () => {
  assert.equal(tapHint(null, "pile", false), "");
  assert.equal(tapHint(table({ phase: "round_over" }), "pile", false), "");
});
