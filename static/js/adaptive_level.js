// The level an adaptive table plays at ("Level 3 of 9"), from each view the table sends.
import { levelText } from "./lib/level_text.js";

document.addEventListener("snapclass:view", function (event) {
  var adaptive = event.detail && event.detail.adaptive;
  var badge = document.querySelector("[data-adaptive-level]");
  if (!adaptive || !badge) return;
  var text = levelText(badge.getAttribute("data-template"), adaptive);
  if (badge.textContent !== text) {
    badge.textContent = text;
    badge.hidden = false;
  }
});
