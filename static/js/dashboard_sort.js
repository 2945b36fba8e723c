// The console's live skills tiles: keep the teacher's chosen order across live updates.
import { ORDERS, sortTiles } from "./lib/tile_orders.js";

var KEY = "snapclass.dashboardSort";

function apply() {
  var select = document.getElementById("dashboard-sort");
  if (!select) return;
  var list = document.querySelector(select.dataset.sorts);
  if (!list) return;
  sortTiles(list.children, select.value).forEach(function (tile) { list.appendChild(tile); });
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
