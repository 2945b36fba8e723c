// What inline handlers and style attributes did before the Content-Security-Policy forbade
// them: print buttons (data-print), selects that submit their form (data-autosubmit), a
// <details> that closes once its htmx form is answered (data-close-details), and per-element
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

  if (window.htmx) {
    window.htmx.onLoad(applyStyles);
  } else {
    document.addEventListener("DOMContentLoaded", function () {
      applyStyles(document);
    });
  }
})();
