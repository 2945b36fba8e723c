// The time a Commotion play took, on the tablet's own clock, for the analytics.
//
// A card that fitted a pile: from the first frame it was drawn as playable. A card that fitted
// nowhere it was played (a wrong play): from the first frame on which both it and the top of
// the pile it went onto were drawn, the first moment that pair could be judged (a top drawn
// after the card was picked up does not count: the child chose before seeing it). 0 when the
// tablet never drew the card (the server then marks the time implausible). The server takes
// at most MAX_PLAY_MS (games/engine/actions.py ReactionMs) and refuses the whole play beyond
// it, so a longer wait is sent as that: the play still counts.
export const MAX_PLAY_MS = 60000;

export function playTime({ playableAt, cardShownAt, pileShownAt, tappedAt }) {
  if (typeof playableAt === "number") return since(playableAt, tappedAt);
  var starts = [cardShownAt, pileShownAt].filter(function (at) {
    return typeof at === "number" && at <= tappedAt;
  });
  if (!starts.length || typeof cardShownAt !== "number") return 0;
  return since(Math.max.apply(null, starts), tappedAt);
}

function since(start, tappedAt) {
  return Math.min(MAX_PLAY_MS, Math.max(0, Math.round(tappedAt - start)));
}
