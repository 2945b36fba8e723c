import assert from "node:assert/strict";
import { test } from "node:test";

import { parseCloseCodes, USED } from "../../static/js/lib/close_codes.js";

function page(codes) {
  return JSON.stringify(codes);
}

// As the server writes them: every name, aliases too (values are the server's business).
const SERVER = Object.fromEntries(USED.map((name, index) => [name, 4100 + index]));

test("the codes are read by name from the page's JSON", () => {
  const codes = parseCloseCodes(page({ ...SERVER, TOO_MANY_SOCKETS: 4429 }));
  assert.equal(codes.NEXT_GAME, SERVER.NEXT_GAME);
  assert.equal(codes.TOO_MANY_SOCKETS, 4429);
});

test("the codes cannot be changed by a script", () => {
  const codes = parseCloseCodes(page(SERVER));
  assert.throws(() => { codes.SILENT = 1000; }, TypeError);
});

test("a page without a name the scripts use is refused, naming it", () => {
  const rest = { ...SERVER };
  delete rest.REPLACED;
  assert.throws(() => parseCloseCodes(page(rest)), /REPLACED/);
});

test("a code that is not a whole number is refused", () => {
  assert.throws(() => parseCloseCodes(page({ ...SERVER, SILENT: "4001" })), /SILENT/);
});

test("anything but an object of codes is refused", () => {
  assert.throws(() => parseCloseCodes("[]"), TypeError);
  assert.throws(() => parseCloseCodes("null"), TypeError);
});
