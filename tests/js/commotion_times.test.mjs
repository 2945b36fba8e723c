import assert from "node:assert/strict";
import { test } from "node:test";

import { MAX_PLAY_MS, playTime } from "../../static/js/commotion_times.js";

test("a card that fitted is timed from the frame it was drawn as playable", () => {
  assert.equal(playTime({ playableAt: 1000, cardShownAt: 200, pileShownAt: 900, tappedAt: 1640 }), 640);
});

test("a wrong play is timed from when both the card and the pile's top were drawn", () => {
  // The card lay there first; the pile's top came later: the pair could be judged from then.
  assert.equal(playTime({ cardShownAt: 200, pileShownAt: 900, tappedAt: 1650.4 }), 750);
  // The card came later than the top.
  assert.equal(playTime({ cardShownAt: 1200, pileShownAt: 900, tappedAt: 1650 }), 450);
  // Onto a new pile: the card alone.
  assert.equal(playTime({ cardShownAt: 1200, tappedAt: 1650 }), 450);
});

test("a pile top drawn after the card was picked up is not what the child judged", () => {
  assert.equal(playTime({ cardShownAt: 200, pileShownAt: 1700, tappedAt: 1650 }), 1450);
});

test("a card the tablet never drew has no time", () => {
  assert.equal(playTime({ pileShownAt: 900, tappedAt: 1650 }), 0);
  assert.equal(playTime({ cardShownAt: null, tappedAt: 1650 }), 0);
});

test("a play after more than a minute is sent as a minute, which the server takes", () => {
  // Beyond it the server refused the whole play, and the child's tap went unanswered.
  assert.equal(playTime({ cardShownAt: 200, pileShownAt: 900, tappedAt: 90_000 }), MAX_PLAY_MS);
  assert.equal(playTime({ playableAt: 1000, tappedAt: 75_000 }), MAX_PLAY_MS);
});
