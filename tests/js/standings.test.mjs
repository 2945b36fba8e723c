import assert from "node:assert/strict";
import { test } from "node:test";

import { createStandings } from "../../static/js/lib/standings.js";

const RULES = {
  always: { always: true, phases: [] },
  end: { ended: true, phases: ["game_over"] },
  breaks: { paused: true, phases: ["round_over", "game_over"] },
  never: { phases: [] },
};

test("an 'always' leaderboard shows the standings in every phase", () => {
  const standings = createStandings({ rules: RULES, leaderboard: "always" });
  assert.equal(standings.shown({ phase: "playing" }), true);
});

test("an end-only leaderboard shows them when the game is over or ended, not before", () => {
  const standings = createStandings({ rules: RULES, leaderboard: "end" });
  assert.equal(standings.shown({ phase: "playing" }), false);
  assert.equal(standings.shown({ phase: "game_over" }), true);
  assert.equal(standings.shown({ phase: "playing", ended: true }), true);
});

test("a leaderboard shown in breaks shows them while paused", () => {
  const standings = createStandings({ rules: RULES, leaderboard: "breaks" });
  assert.equal(standings.shown({ phase: "playing", paused: true }), true);
  assert.equal(standings.shown({ phase: "playing", paused: false }), false);
});

test("scoring off shows no standings at any time", () => {
  const standings = createStandings({ rules: RULES, leaderboard: "always", scoring: false });
  assert.equal(standings.scoring(), false);
  assert.equal(standings.shown({ phase: "game_over" }), false);
});

test("the teacher's change, as the socket tells it, applies at once", () => {
  const standings = createStandings({ rules: RULES, leaderboard: "never" });
  assert.equal(standings.shown({ phase: "game_over" }), false);
  standings.update({ leaderboard: "end", scoring: true });
  assert.equal(standings.shown({ phase: "game_over" }), true);
  standings.update({ leaderboard: "end", scoring: false });
  assert.equal(standings.shown({ phase: "game_over" }), false);
});

test("an unknown leaderboard shows nothing; no settings at all: always, scoring on", () => {
  assert.equal(createStandings({ rules: RULES, leaderboard: "odd" }).shown({ phase: "game_over" }), false);
  const bare = createStandings({});
  assert.equal(bare.scoring(), true);
  assert.equal(bare.shown({ phase: "game_over" }), false);  // no rules came with the page
});
