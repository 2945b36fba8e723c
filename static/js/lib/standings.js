// What a tablet may show of points, ranks and winners: the session's leaderboard and scoring
// controls, applied to the table's current view. The rule comes from the server with the page
// (classroom/selectors/standings.py standings_rules: what each leaderboard choice shows); this
// only reads it. The page starts from the settings it was rendered with; the table socket then
// tells it the current ones when it connects and whenever the teacher changes them.
(function () {
  "use strict";

  function create(initial) {
    var rules = initial.rules || {};
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
        var rule = rules[current.leaderboard];
        if (!rule) return false;
        return Boolean(
          rule.always ||
          (rule.ended && view && view.ended) ||
          (rule.paused && view && view.paused) ||
          (view && rule.phases.indexOf(view.phase) >= 0)
        );
      },
    };
  }

  function fromPage() {
    var data = document.getElementById("standings");
    return create(data ? JSON.parse(data.textContent) : {});
  }

  window.SnapclassStandings = { create: create, fromPage: fromPage };
})();
