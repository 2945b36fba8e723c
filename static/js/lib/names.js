// The names of a table's seats as a tablet shows them: the class list's names the page was
// drawn with (labels.names, by seat), else "Player n".
import { fmt } from "./format.js";

export function seatNames(labels) {
  function seatName(seat) {
    return labels.names[String(seat)] || fmt(labels.player_n, { n: seat + 1 });
  }

  // A classmate taken off the class list mid-game: a robot plays their seat, and their name
  // leaves this page at once (the next page load has the robot's own name).
  function forgetRemoved(events) {
    (events || []).forEach((event) => {
      if (event.kind === "bot_takeover") labels.names[String(event.seat)] = labels.robot;
    });
  }

  return { seatName, forgetRemoved };
}
