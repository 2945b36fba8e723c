// A game page tells the server which tablet it is on, once per load, so the seat's trials are
// written with their device (classroom/views/warmup.py). Nothing on the page waits for it.
import { csrfToken, deviceFields, measureFrameInterval, postFields } from "./lib/device.js";

const meta = document.querySelector('meta[name="snapclass-device-url"]');
if (meta) {
  measureFrameInterval(requestAnimationFrame).then((frameMs) => {
    if (frameMs === null) return;
    postFields(meta.content, deviceFields(window.screen, frameMs), csrfToken(document.body)).catch(() => {
      // A lost report leaves the seat's device as it was; the next page load sends it again.
    });
  });
}
