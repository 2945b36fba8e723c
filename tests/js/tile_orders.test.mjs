import assert from "node:assert/strict";
import { test } from "node:test";

import { sortTiles } from "../../static/js/lib/tile_orders.js";

const tile = (name, data = {}) => ({ dataset: { name, ...data } });
const names = (tiles) => tiles.map((t) => t.dataset.name);

const TILES = [
  tile("Chen", { rt: "620", accuracy: "0.9", struggling: "0" }),
  tile("Ava", { rt: "480", accuracy: "0.7", struggling: "1" }),
  tile("Ben"),  // no trials yet
  tile("Dee", { rt: "480", accuracy: "0.5", struggling: "1" }),
];

test("by name", () => {
  assert.deepEqual(names(sortTiles(TILES, "name")), ["Ava", "Ben", "Chen", "Dee"]);
});

test("by reaction time, quickest first; a tile without one last; ties by name", () => {
  assert.deepEqual(names(sortTiles(TILES, "rt")), ["Ava", "Dee", "Chen", "Ben"]);
});

test("by accuracy, lowest first", () => {
  assert.deepEqual(names(sortTiles(TILES, "accuracy")), ["Dee", "Ava", "Chen", "Ben"]);
});

test("struggling first, then by accuracy", () => {
  assert.deepEqual(names(sortTiles(TILES, "struggling")), ["Dee", "Ava", "Chen", "Ben"]);
});

test("an unknown order is by name, and the tiles given are not reordered in place", () => {
  const given = [...TILES];
  assert.deepEqual(names(sortTiles(given, "shoe size")), ["Ava", "Ben", "Chen", "Dee"]);
  assert.deepEqual(given, TILES);
});
