import assert from "node:assert/strict";
import { test } from "node:test";

import { levelText } from "../../static/js/lib/level_text.js";

test("the rung is counted from one, out of all rungs", () => {
  assert.equal(levelText("Level %(n)s of %(total)s", { rung: 0, rungs: 9 }), "Level 1 of 9");
  assert.equal(levelText("Level %(n)s of %(total)s", { rung: 8, rungs: 9 }), "Level 9 of 9");
});

test("a translated template may put the numbers in another order", () => {
  assert.equal(levelText("%(total)s 級中的第 %(n)s 級", { rung: 2, rungs: 9 }), "9 級中的第 3 級");
});
