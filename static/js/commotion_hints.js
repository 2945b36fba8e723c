// What a Commotion tablet answers at once to a tap that cannot play anything now: the label
// (a key of the page's words) that says what to tap instead. A tap the server must judge (a
// card onto a pile) is not answered here: the server's own words come back for it.

// The move to make now, for a child who tapped something that does nothing.
export function nextMove(view) {
  if (view.you_can_out) return "hint_out";
  if ((view.playable || []).length) return "hint_green";
  if (view.you_can_extra) return "hint_extra";
  var mine = yours(view);
  if (mine && (mine.stock > 0 || mine.waste > 0)) return "hint_turn";
  return "hint_wait";
}

function yours(view) {
  return (view.players || []).find(function (p) { return p.seat === view.you; }) || null;
}

// Not playing now (the countdown, a pause): the same answer whatever was tapped.
function notNow(view) {
  if (view.paused) return "paused";
  if (view.phase === "countdown") return "hint_wait_go";
  if (view.phase !== "playing" || view.ended) return "";
  return null;
}

// tap: "pile" or "centre" (nothing held), "stock", "others" (another player's cards),
// "waste" (the empty waste slot), "card" (one of the child's own). "" when the tap needs no
// answer from here (it plays, or the server answers it).
export function tapHint(view, tap, holding) {
  if (!view) return "";
  var early = notNow(view);
  if (early !== null) return early;
  if (tap === "card") return "";
  if (tap === "pile" || tap === "centre") return holding ? (tap === "centre" ? "hint_pile" : "") : "hint_card_first";
  if (tap === "stock") {
    var rowFits = (view.playable || []).some(function (p) { return p.source === "tableau"; });
    if (rowFits) return "hint_row_first";
    var mine = yours(view);
    if (mine && mine.stock === 0 && mine.waste === 0) return nextMove(view);
    return "";
  }
  if (tap === "others") return "hint_not_yours";
  return nextMove(view);
}
