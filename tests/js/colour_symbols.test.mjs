import assert from "node:assert/strict";
import { test } from "node:test";

import { OUTLINES, symbols } from "../../static/js/colour_symbols.js";

test("every card colour has a shape of its own", () => {
  const colours = ["red", "yellow", "blue", "green", "purple"];
  const shapes = colours.map(symbols.forColour);
  assert.equal(new Set(shapes).size, colours.length);
  shapes.forEach((shape) => assert.ok(shape in OUTLINES, shape));
});

test("a colour without a shape gets none", () => {
  assert.equal(symbols.forColour("black"), null);
});

test("seats take the shapes in turn, and the fifth wraps round", () => {
  const seats = [0, 1, 2, 3, 4].map(symbols.forOwner);
  assert.equal(new Set(seats).size, 5);
  assert.equal(symbols.forOwner(5), symbols.forOwner(0));
});

test("the outlines fit the box from -1 to 1", () => {
  Object.entries(OUTLINES).forEach(([name, outline]) => {
    if (outline === null) return;  // a circle
    outline.flat().forEach((value) => assert.ok(Math.abs(value) <= 1.1, name + ": " + value));
  });
});

test("the star has five points", () => {
  const far = OUTLINES.star.filter(([x, y]) => Math.hypot(x, y - 0.1) > 0.9);
  assert.equal(far.length, 5);
});
