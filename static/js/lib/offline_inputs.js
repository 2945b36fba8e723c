// What becomes of a tablet's input while its link is down (table_socket.js), by kind.
//
// A race is decided by who is first or by a moment that passes: a slap or a claim on the
// flipped card, a play on the shared centre piles, a catch of a falling piece. Sent when the
// link is back it would arrive after the race, so the tablet drops it and says at once that
// it cannot count. Every other input waits for this child alone (a flip, a card choice,
// turning the stock, OUT, the extra card, placing cargo): it is kept, sent when the link is
// back, and counts unless the game moved on meanwhile. The kinds are the games' action tags
// (games/<game>/actions.py), one name space for every game.

export const RACES = Object.freeze(["slap", "claim", "play", "catch"]);

// A tap the server has not answered by then (its pong comes straight from the socket, not
// after the game has stored anything) puts the link in doubt; the child hears what becomes
// of the tap at once, within 300 ms with a page's timers up to 100 ms late. A server at
// capacity answers within 41 ms at p99 (docs/benchmarks.md), classroom Wi-Fi in tens of ms.
export const ANSWER_WITHIN_MS = 200;

export function isRace(kind) {
  return RACES.indexOf(kind) >= 0;
}

// The link was found down. entries: {seq: {kind, saving, told}} of the inputs the server has
// not answered. Races the server has said nothing of (no "pending": it has not got them)
// are dropped; the rest are kept. tell: "race" when a dropped race was not told yet, else
// "kept" when a kept input was not, else "" (each input is told of once).
export function sortOut(entries) {
  var dropped = [];
  var kept = [];
  Object.keys(entries).forEach(function (seq) {
    var entry = entries[seq];
    if (isRace(entry.kind) && !entry.saving) dropped.push(seq);
    else kept.push(seq);
  });
  var untold = function (seq) { return !entries[seq].told; };
  var tell = dropped.some(untold) ? "race" : kept.some(untold) ? "kept" : "";
  return { dropped: dropped, kept: kept, tell: tell };
}
