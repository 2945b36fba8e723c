// The panel a tablet shows when its game is over, or when the table stopped for good.
import { fmt } from "./format.js";

// Between the names of several winners (a tie).
const WINNERS_JOINED_BY = " & ";

// The panel's title for a finished game: who won, but only when the session's standings let
// the table see winners (shown); otherwise only that the game is over.
export function overTitle(labels, view, { shown, seatName }) {
  if (!shown) return view.ended ? labels.ended : labels.game_over;
  const winners = view.winners || [];
  if (winners.indexOf(view.you) >= 0) return labels.you_win;
  if (winners.length) return fmt(labels.winner_is, { name: winners.map(seatName).join(WINNERS_JOINED_BY) });
  return labels.ended;
}

// el: the game's {over, overTitle, overText} elements.
export function showOver(el, title, text) {
  el.overTitle.textContent = title;
  el.overText.textContent = text;
  el.over.hidden = false;
}
