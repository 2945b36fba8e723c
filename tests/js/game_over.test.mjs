import assert from "node:assert/strict";
import { test } from "node:test";

import { overTitle } from "../../static/js/lib/game_over.js";

const L = {
  ended: "The teacher ended the game",
  game_over: "Game over",
  you_win: "You win!",
  winner_is: "%(name)s wins!",
};
const NAMES = ["Ava", "Ben", "Chen"];
const seatName = (seat) => NAMES[seat];

test("the winner is named when the standings may be shown", () => {
  const view = { you: 1, winners: [0], ended: false };
  assert.equal(overTitle(L, view, { shown: true, seatName }), "Ava wins!");
});

test("the winning tablet hears it won", () => {
  const view = { you: 0, winners: [0], ended: false };
  assert.equal(overTitle(L, view, { shown: true, seatName }), "You win!");
});

test("a tie names every winner", () => {
  const view = { you: 1, winners: [0, 2], ended: false };
  assert.equal(overTitle(L, view, { shown: true, seatName }), "Ava & Chen wins!");
});

test("no winners: the game was ended", () => {
  const view = { you: 1, winners: [], ended: true };
  assert.equal(overTitle(L, view, { shown: true, seatName }), L.ended);
});

test("standings hidden: no winner is named, only that the game is over or ended", () => {
  assert.equal(overTitle(L, { you: 0, winners: [0], ended: false }, { shown: false, seatName }), "Game over");
  assert.equal(overTitle(L, { you: 0, winners: [0], ended: true }, { shown: false, seatName }), L.ended);
});
