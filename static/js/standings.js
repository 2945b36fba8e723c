// What a tablet may show of points, ranks and winners: the session's leaderboard and scoring
// controls, applied to the table's current view. The same rule as classroom/standings.py
// (keep the two alike). The page starts from the settings it was rendered with; the table
// socket then tells it the current ones when it connects and whenever the teacher changes them.
(function () {
  "use strict";

  var ROUND_BREAKS = ["round_over", "game_over"];

  function create(initial) {
    var current = { leaderboard: initial.leaderboard || "always", scoring: initial.scoring !== false };

    return {
      update: function (frame) {
        current = { leaderboard: frame.leaderboard, scoring: frame.scoring !== false };
      },
      // Scoring off is accuracy-only mode: no points, ranks or winners at any time.
      scoring: function () { return current.scoring; },
      // Others' points, the round's score table and the winners, for this view of the table.
      shown: function (view) {
        if (!current.scoring) return false;
        var mode = current.leaderboard;
        if (mode === "always") return true;
        var ended = Boolean(view && view.ended);
        if (mode === "end") return ended;
        if (mode === "between_rounds") {
          return ended || Boolean(view && view.paused) || Boolean(view && ROUND_BREAKS.indexOf(view.phase) >= 0);
        }
        return false;
      },
    };
  }

  function fromPage() {
    var data = document.getElementById("standings");
    return create(data ? JSON.parse(data.textContent) : {});
  }

  window.SnapclassStandings = { create: create, fromPage: fromPage };
})();
