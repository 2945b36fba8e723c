// The how-to-play demo's pure parts: its schedule (every demo under 20 s), when a tablet
// starts it by itself, and the pictures' content (Palm Strike's example cards match at their
// level as the rules say).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { CARDS, commotionDemo, onPile } from "../../static/js/commotion_how_to_play.js";
import { EXAMPLES, OTHER, OTHER_TOO, palmStrikeDemo, QUIET, sharedColours } from "../../static/js/palm_strike_how_to_play.js";
import { DOCK, PICKED, PLACES, riffRaffDemo } from "../../static/js/riff_raff_how_to_play.js";
import {
  AUTO_KEY,
  MAX_DEMO_MS,
  rememberSeen,
  schedule,
  seenKey,
  startsByItself,
  stepAt,
} from "../../static/js/lib/how_to_play.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const LEVELS = ["beginner", "intermediate", "advanced"];
const DEMOS = [palmStrikeDemo, commotionDemo, riffRaffDemo];

// Every context a demo is played in: each level, with and without team mode.
function contexts() {
  return LEVELS.flatMap((level) => [{ level, team: false }, { level, team: true }]);
}

function storage(values = {}) {
  const kept = { ...values };
  return {
    kept,
    getItem: (key) => (key in kept ? kept[key] : null),
    setItem: (key, value) => { kept[key] = String(value); },
  };
}

test("a schedule lays the steps end to end", () => {
  const plan = schedule([{ key: "a", ms: 1000 }, { key: "b", ms: 2500 }]);
  assert.deepEqual(plan.steps, [
    { key: "a", start: 0, end: 1000 },
    { key: "b", start: 1000, end: 3500 },
  ]);
  assert.equal(plan.total, 3500);
  assert.equal(stepAt(plan, 0), 0);
  assert.equal(stepAt(plan, 999), 0);
  assert.equal(stepAt(plan, 1000), 1);
  assert.equal(stepAt(plan, 3500), -1);
});

test("every demo, at every level, is over in under 20 seconds", () => {
  assert.equal(MAX_DEMO_MS, 20000);
  DEMOS.forEach((demo) => {
    contexts().forEach((context) => {
      const plan = schedule(demo.steps(context));
      assert.ok(plan.total < MAX_DEMO_MS, demo.game + " " + JSON.stringify(context) + ": " + plan.total);
      assert.ok(plan.steps.length >= 3, demo.game);
      // Each step long enough to read its line.
      plan.steps.forEach((row) => assert.ok(row.end - row.start >= 2500, demo.game + " " + row.key));
    });
  });
});

test("every step's words are among the words the game's page gives", () => {
  DEMOS.forEach((demo) => {
    const template = readFileSync(join(ROOT, "templates/gamesite", demo.game, "_how_to_play.html"), "utf8");
    const keys = new Set([...template.matchAll(/data-htp-word="(\w+)"/g)].map((match) => match[1]));
    contexts().forEach((context) => {
      demo.steps(context).forEach((step) => {
        const words = step.words || step.key;
        assert.ok(keys.has(words), demo.game + ": " + words);
      });
    });
  });
});

test("Palm Strike's page names every colour its example cards print", () => {
  const template = readFileSync(join(ROOT, "templates/gamesite/palm_strike/_how_to_play.html"), "utf8");
  const cards = [QUIET, ...LEVELS.map((level) => EXAMPLES[level].big)];
  cards.forEach((card) => assert.ok(template.includes('data-htp-word="card_' + card.word + '"'), card.word));
});

test("a student's first game plays the demo, as the server says", () => {
  assert.equal(startsByItself({ game: "commotion", first: true }, storage()), true);
  assert.equal(startsByItself({ game: "commotion", first: false }, storage()), false);
  // What the tablet kept for a guest does not count for a student.
  assert.equal(startsByItself({ game: "commotion", first: true }, storage({ [seenKey("commotion")]: "1" })), true);
});

test("a guest's tablet plays each game's demo once", () => {
  const kept = storage();
  const page = { game: "riff_raff", first: null };
  assert.equal(startsByItself(page, kept), true);
  rememberSeen(kept, "riff_raff");
  assert.equal(startsByItself(page, kept), false);
  assert.equal(startsByItself({ game: "palm_strike", first: null }, kept), true);
});

test("a tablet told not to start it never does; the \"?\" still plays it", () => {
  const off = storage({ [AUTO_KEY]: "off" });
  assert.equal(startsByItself({ game: "palm_strike", first: true }, off), false);
  assert.equal(startsByItself({ game: "palm_strike", first: null }, off), false);
});

test("a tablet whose storage refuses is a guest who has seen nothing", () => {
  const refusing = {
    getItem: () => { throw new Error("SecurityError"); },
    setItem: () => { throw new Error("QuotaExceededError"); },
  };
  assert.equal(startsByItself({ game: "palm_strike", first: null }, refusing), true);
  assert.doesNotThrow(() => rememberSeen(refusing, "palm_strike"));
  assert.equal(startsByItself({ game: "palm_strike", first: null }, null), true);
});

// The match levels as docs/games.md states them: player card P (bg, pic), public card Q
// (bg, word, ink).
function matches(q, p, level) {
  if (level === "beginner") return [q.bg, q.word, q.ink].includes(p.bg) && [q.bg, q.word, q.ink].includes(p.pic);
  if (level === "intermediate") return [q.word, q.ink].sort().join() === [p.bg, p.pic].sort().join();
  return q.word === p.pic && q.ink === p.bg;
}

test("Palm Strike's example card matches the big card at its level, and not at a harder one", () => {
  LEVELS.forEach((level, index) => {
    const example = EXAMPLES[level];
    assert.ok(matches(example.big, example.match, level), level);
    LEVELS.slice(index + 1).forEach((harder) => {
      assert.ok(!matches(example.big, example.match, harder), level + " at " + harder);
    });
    assert.deepEqual(sharedColours(level), [example.match.bg, example.match.pic]);
  });
});

test("Palm Strike's other cards match nothing, and the quiet big card no card at all", () => {
  LEVELS.forEach((level) => {
    [OTHER, OTHER_TOO].forEach((card) => {
      LEVELS.forEach((at) => assert.ok(!matches(EXAMPLES[level].big, card, at), level + " " + at));
    });
    [EXAMPLES[level].match, OTHER, OTHER_TOO].forEach((card) => {
      LEVELS.forEach((at) => assert.ok(!matches(QUIET, card, at), JSON.stringify(card) + " " + at));
    });
  });
});

test("Palm Strike's cards are cards the game deals", () => {
  const cards = [OTHER, OTHER_TOO, ...LEVELS.map((level) => EXAMPLES[level].match)];
  cards.forEach((card) => assert.notEqual(card.bg, card.pic));
  [QUIET, ...LEVELS.map((level) => EXAMPLES[level].big)].forEach((card) => assert.notEqual(card.bg, card.ink));
});

test("Palm Strike's demo follows the table: its level and team mode", () => {
  const page = { level: "advanced", team: false, language: "zh-hant" };
  assert.deepEqual(palmStrikeDemo.context(page, null), { level: "advanced", team: false, language: "zh-hant" });
  assert.deepEqual(palmStrikeDemo.context(page, { level: "beginner", team_mode: true }), { level: "beginner", team: true, language: "zh-hant" });
  assert.deepEqual(palmStrikeDemo.context({}, null).level, "beginner");
  const words = palmStrikeDemo.steps({ level: "intermediate", team: false }).map((step) => step.words || step.key);
  assert.deepEqual(words, ["look", "match_intermediate", "slap", "quiet"]);
  const team = palmStrikeDemo.steps({ level: "intermediate", team: true }).map((step) => step.words || step.key);
  assert.deepEqual(team, ["look", "match_team", "slap_team", "quiet"]);
});

test("Commotion's pile grows START, 2, 3 in one colour; the other colour never goes on", () => {
  const keys = commotionDemo.steps().map((step) => step.key);
  assert.deepEqual(keys, ["start", "two", "next", "wrong", "out"]);
  assert.deepEqual(onPile("start"), [true, false, false, false]);
  assert.deepEqual(onPile("two"), [true, true, false, false]);
  assert.deepEqual(onPile("out"), [true, true, true, false]);
  const numbers = CARDS.filter((card) => card.step !== null && card.kind === "number");
  assert.deepEqual(numbers.map((card) => card.number), [2, 3]);
  assert.equal(new Set(numbers.map((card) => card.colour)).size, 1);
  const refused = CARDS.find((card) => card.step === null);
  assert.notEqual(refused.colour, numbers[0].colour);
  assert.equal(refused.number, 4);
});

test("Riff Raff's ship has its ten numbered places, the picked one among them", () => {
  assert.deepEqual(Object.keys(PLACES).map(Number).sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.ok(PICKED in PLACES);
  // Deck places low, yardarm places higher and higher (smaller y is higher).
  assert.ok(PLACES[4][1] > PLACES[5][1] && PLACES[6][1] > PLACES[7][1] && PLACES[8][1] > PLACES[9][1]);
  Object.values(PLACES).concat([DOCK]).forEach((at) => {
    assert.ok(at[0] >= 0 && at[0] <= 400 && at[1] >= 0 && at[1] <= 300, String(at));
  });
});
