// Game settings: show a setting only while it matters (auto-flip interval with auto-flip,
// team-mode options with team mode, the colour words' language with a game that has colour
// words). Hidden fields keep their values and are still sent.
function currentValue(control) {
  if (control.type === "checkbox") return control.checked ? "true" : "false";
  return String(control.value).toLowerCase();
}

function refresh(root) {
  root.querySelectorAll("[data-shown-when]").forEach(function (input) {
    var prefix = input.name.slice(0, input.name.lastIndexOf("-") + 1);
    var control = root.querySelector('[name="' + prefix + input.dataset.shownWhen + '"]');
    var field = input.closest(".field");
    if (!control || !field) return;
    field.hidden = currentValue(control) !== input.dataset.shownValue;
  });
  var game = document.getElementById("game-settings");
  document.querySelectorAll("[data-colour-words-only]").forEach(function (field) {
    if (game) field.hidden = game.dataset.colourWords !== "true";
  });
}

document.addEventListener("change", function (event) {
  var form = event.target.closest && event.target.closest("form");
  if (form) refresh(form);
});
document.addEventListener("htmx:afterSwap", function () { refresh(document); });
document.addEventListener("DOMContentLoaded", function () { refresh(document); });
