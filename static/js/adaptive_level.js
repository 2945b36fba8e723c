// The level an adaptive table plays at ("Level 3 of 9"), from each view the table sends.
(function () {
  "use strict";
  document.addEventListener("snapclass:view", function (event) {
    var adaptive = event.detail && event.detail.adaptive;
    var badge = document.querySelector("[data-adaptive-level]");
    if (!adaptive || !badge) return;
    var text = badge.getAttribute("data-template")
      .replace("%(n)s", String(adaptive.rung + 1))
      .replace("%(total)s", String(adaptive.rungs));
    if (badge.textContent !== text) {
      badge.textContent = text;
      badge.hidden = false;
    }
  });
})();
