// Palm Strike: what a tablet says to a tap on something that cannot be played now (a card in
// a hand, another player, the deck out of turn): what to tap instead. The answer is a label
// key of the page's words and the picture beside it; null where nothing needs saying.
export function tapHint(view, pacing) {
  if (!view || view.phase === "game_over" || view.ended) return null;
  if (view.paused) return { key: "paused_tap", icon: "pause" };
  if (view.phase === "open") return { key: view.team_mode ? "team_hint" : "slap_big_card", icon: "hand" };
  if (view.phase === "choosing") {
    // Only the chooser's view holds the choice; everyone else waits for it.
    if (!view.choice) return { key: "waiting_choice", icon: "clock" };
    if (view.choice.reason === "player") return { key: "choose_player", icon: "hand" };
    return { key: view.choice.reason === "give" ? "choose_give" : "choose_return", icon: "hand", name: view.choice.to_seat };
  }
  var someone = view.active_seat !== null && view.active_seat !== undefined;
  if (view.phase === "waiting_flip" && pacing !== "auto" && someone) {
    if (view.active_seat === view.you) return { key: "your_flip", icon: "hand" };
    return { key: "not_your_turn", icon: "hand", name: view.active_seat };
  }
  return { key: "wait_flip", icon: "clock" };
}
