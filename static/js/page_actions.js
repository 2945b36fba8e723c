// What inline handlers and style attributes did before the Content-Security-Policy forbade
// them: print buttons (data-print), selects that submit their form (data-autosubmit), a
// <details> that closes once its htmx form is answered (data-close-details), one that stays
// open through live redraws (data-keep-open), and per-element
// CSS custom properties (data-style="--left: 12%; --top: 3%"), set through the CSSOM, which
// the policy allows, also on content htmx swaps in later.
(function () {
  "use strict";

  function applyStyles(root) {
    var scope = root && root.querySelectorAll ? root : document;
    var elements = Array.prototype.slice.call(scope.querySelectorAll("[data-style]"));
    if (scope.matches && scope.matches("[data-style]")) elements.push(scope);
    elements.forEach(function (element) {
      element.getAttribute("data-style").split(";").forEach(function (declaration) {
        var colon = declaration.indexOf(":");
        var name = declaration.slice(0, colon).trim();
        // Custom properties only: the stylesheet decides what they do.
        if (colon < 0 || name.indexOf("--") !== 0) return;
        element.style.setProperty(name, declaration.slice(colon + 1).trim());
      });
    });
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) window.print();
  });

  document.addEventListener("change", function (event) {
    var field = event.target.closest && event.target.closest("[data-autosubmit]");
    if (field && field.form) field.form.submit();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.target.closest && event.target.closest("[data-close-details]");
    var details = form && form.closest("details");
    if (details) details.open = false;
  });

  // A live page redrawn from its socket (console, projector) must not close what the teacher
  // has open nor drop what they typed: a <details data-keep-open id=…> keeps its open state and
  // its fields' values across each redraw. Form answers (hx-post) redraw as sent.
  var kept = {};

  document.addEventListener("htmx:wsBeforeMessage", function () {
    kept = {};
    document.querySelectorAll("details[data-keep-open][id]").forEach(function (details) {
      if (!details.open) return;
      var values = {};
      details.querySelectorAll("input, select, textarea").forEach(function (field) {
        if (!field.name || field.type === "hidden") return;
        if (field.type === "radio") { if (field.checked) values[field.name] = field.value; }
        else values[field.name] = field.type === "checkbox" ? field.checked : field.value;
      });
      kept[details.id] = values;
    });
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    Object.keys(kept).forEach(function (id) {
      var details = document.getElementById(id);
      if (!details) return;
      details.open = true;
      details.querySelectorAll("input, select, textarea").forEach(function (field) {
        if (!(field.name in kept[id])) return;
        if (field.type === "checkbox") field.checked = kept[id][field.name];
        else if (field.type === "radio") field.checked = field.value === kept[id][field.name];
        else field.value = kept[id][field.name];
      });
    });
    kept = {};
  });

  if (window.htmx) {
    window.htmx.onLoad(applyStyles);
  } else {
    document.addEventListener("DOMContentLoaded", function () {
      applyStyles(document);
    });
  }
})();
