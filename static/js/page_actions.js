// What inline handlers and style attributes did before the Content-Security-Policy forbade
// them: print buttons (data-print), selects that submit their form (data-autosubmit), a
// <details> that closes once its htmx form is answered (data-close-details), one that stays
// open through live redraws (data-keep-open), forms sent once (data-submit-once), and
// per-element CSS custom properties (data-style="--left: 12%; --top: 3%"), set through the
// CSSOM, which the policy allows, also on content htmx swaps in later.
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

// A form that seats a child (Join, a name on the class list) is sent once. While a whole
// class joins, its answer can take seconds: the tap is answered at once (the button spins,
// and says data-busy-label if it has one) and a second tap sends nothing: posted again, it
// would find the child's name already taken by their own first tap.
function markBusy(form, button) {
  form.setAttribute("aria-busy", "true");
  if (!button) return;
  button.setAttribute("aria-busy", "true");
  var spinner = document.createElement("span");
  spinner.className = "spinner";
  spinner.setAttribute("aria-hidden", "true");
  if (button.dataset.busyLabel) {
    button.dataset.idleLabel = button.textContent;
    button.textContent = button.dataset.busyLabel;
  }
  button.insertBefore(spinner, button.firstChild);
}

function markIdle(form) {
  form.removeAttribute("aria-busy");
  form.querySelectorAll("[aria-busy]").forEach(function (button) {
    button.removeAttribute("aria-busy");
    if (button.dataset.idleLabel !== undefined) {
      button.textContent = button.dataset.idleLabel;
      delete button.dataset.idleLabel;
    }
    var spinner = button.querySelector(".spinner");
    if (spinner) spinner.remove();
  });
}

document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!form.matches || !form.matches("form[data-submit-once]") || event.defaultPrevented) return;
  if (form.getAttribute("aria-busy") === "true") {
    event.preventDefault();
    return;
  }
  markBusy(form, event.submitter || form.querySelector("[type=submit]"));
});

// Back to a page the browser kept (the back button): its forms can be sent again.
window.addEventListener("pageshow", function (event) {
  if (!event.persisted) return;
  document.querySelectorAll("form[data-submit-once][aria-busy]").forEach(markIdle);
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
