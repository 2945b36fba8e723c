import assert from "node:assert/strict";
import { test } from "node:test";

import { fmt } from "../../static/js/lib/format.js";

test("fills %(name)s and %(name)d placeholders from the values", () => {
  assert.equal(fmt("%(name)s wins!", { name: "Ava" }), "Ava wins!");
  assert.equal(fmt("Round %(n)d of %(total)s", { n: 2, total: 5 }), "Round 2 of 5");
});

test("fills every occurrence of a placeholder", () => {
  assert.equal(fmt("%(n)s + %(n)s", { n: 1 }), "1 + 1");
});

test("a placeholder without a value is left out, never shown", () => {
  assert.equal(fmt("Cards: %(n)s", {}), "Cards: ");
});

test("zero is a value, not a missing one", () => {
  assert.equal(fmt("%(n)s left", { n: 0 }), "0 left");
});

test("other percent signs stay as they are", () => {
  assert.equal(fmt("100% sure, %(who)s", { who: "Ben" }), "100% sure, Ben");
  assert.equal(fmt("%(n)x", { n: 3 }), "%(n)x");
});
