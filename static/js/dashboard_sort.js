// The console's live skills tiles: keep the teacher's chosen order across live updates.
(function () {
  "use strict";
  var KEY = "snapclass.dashboardSort";

  function number(tile, name, missing) {
    var value = parseFloat(tile.dataset[name]);
    return isNaN(value) ? missing : value;
  }

  var ORDERS = {
    name: function (a, b) { return a.dataset.name.localeCompare(b.dataset.name); },
    rt: function (a, b) { return number(a, "rt", Infinity) - number(b, "rt", Infinity); },
    accuracy: function (a, b) { return number(a, "accuracy", Infinity) - number(b, "accuracy", Infinity); },
    struggling: function (a, b) {
      return number(b, "struggling", 0) - number(a, "struggling", 0) || ORDERS.accuracy(a, b);
    },
  };

  function apply() {
    var select = document.getElementById("dashboard-sort");
    if (!select) return;
    var list = document.querySelector(select.dataset.sorts);
    if (!list) return;
    var order = ORDERS[select.value] || ORDERS.name;
    Array.prototype.slice.call(list.children).sort(function (a, b) {
      return order(a, b) || ORDERS.name(a, b);
    }).forEach(function (tile) { list.appendChild(tile); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("dashboard-sort");
    if (!select) return;
    var saved = window.sessionStorage.getItem(KEY);
    if (saved && ORDERS[saved]) select.value = saved;
    select.addEventListener("change", function () {
      window.sessionStorage.setItem(KEY, select.value);
      apply();
    });
    apply();
  });
  // Every live update replaces the tiles in server order.
  document.addEventListener("htmx:wsAfterMessage", apply);
  document.addEventListener("htmx:afterSwap", apply);
})();
