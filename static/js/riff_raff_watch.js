// The teacher's console and the projector: every live Riff Raff table's ship, moving as it
// does on the tablets. Each watch element ([data-rr-watch], kept across htmx swaps with
// hx-preserve) gets its own scene and a watch socket; new ones appear as tables start.
import { connectTable } from "./lib/table_socket.js";
import { createScene } from "./riff_raff_scene.js";

var sceneData = document.getElementById("rr-scene");
if (sceneData) watchTables(JSON.parse(sceneData.textContent));

function watchTables(SCENE) {
  function watch(element) {
    if (element.dataset.watching) return;
    element.dataset.watching = "1";
    var scene = createScene(element.querySelector("canvas"), {
      geometry: SCENE.geometry,
      cargo: SCENE.cargo,
      zoneStyle: function () { return "watch"; },
    });
    element.riffRaffScene = scene;  // for browser tests
    connectTable(element, {
      onState: function (view) { scene.setView(view); },
      onMotion: function (message) { scene.pushMotion(message.frame); },
    });
  }

  function watchAll() { document.querySelectorAll("[data-rr-watch]").forEach(watch); }

  // Tables start while the page is open: their tiles arrive in htmx swaps.
  new MutationObserver(watchAll).observe(document.body, { childList: true, subtree: true });
  watchAll();
}
