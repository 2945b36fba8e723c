import assert from "node:assert/strict";
import { test } from "node:test";

import { PILE_GAP, PILE_MAX, PILE_MIN, pileWidth } from "../../static/js/commotion_layout.js";

test("one pile in a roomy box is drawn at the largest size", () => {
  assert.equal(pileWidth(1, 800, 600), PILE_MAX);
});

test("piles in one row share the width, less the gaps", () => {
  // Four in a row: (500 - 3 gaps) / 4 = 117.5, over the largest; in a box 300 wide: 67.5.
  assert.equal(pileWidth(4, 500, 1000), PILE_MAX);
  assert.equal(pileWidth(4, 300, 100), Math.floor((300 - 3 * PILE_GAP) / 4));
});

test("a short box stacks the piles in more rows when that allows wider cards", () => {
  // Six piles, 400 x 400: 3 columns x 2 rows gives (400 - 20) / 3 = 126 wide and
  // (400 - 10) / 2 / 1.4 = 139 high: the largest card fits.
  assert.equal(pileWidth(6, 400, 400), PILE_MAX);
  // In a box of 200 x 400, two columns of three: (200 - 10) / 2 = 95 wide, (400 - 20) / 3 / 1.4 = 90.
  assert.equal(pileWidth(6, 200, 400), 90);
});

test("however many piles, a card is never drawn under the smallest size", () => {
  assert.equal(pileWidth(40, 300, 200), PILE_MIN);
});
