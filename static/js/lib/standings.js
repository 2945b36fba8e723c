// What a tablet may show of points, ranks and winners: the session's leaderboard and scoring
// controls, applied to the table's current view. The rule comes from the server with the page
// (classroom/selectors/standings.py standings_rules: what each leaderboard choice shows); this
// only reads it. The page starts from the settings it was rendered with; the table socket then
// tells it the current ones when it connects and whenever the teacher changes them.

export function createStandings(initial) {
  const rules = initial.rules || {};
  let current = { leaderboard: initial.leaderboard || "always", scoring: initial.scoring !== false };

  return {
    update(frame) {
      current = { leaderboard: frame.leaderboard, scoring: frame.scoring !== false };
    },
    // Scoring off is accuracy-only mode: no points, ranks or winners at any time.
    scoring() { return current.scoring; },
    // Others' points, the round's score table and the winners, for this view of the table.
    shown(view) {
      if (!current.scoring) return false;
      const rule = rules[current.leaderboard];
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

// The settings the page was drawn with (its #standings element), if it has them.
export function standingsFromPage() {
  const data = document.getElementById("standings");
  return createStandings(data ? JSON.parse(data.textContent) : {});
}
