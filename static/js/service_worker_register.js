// Registers the site's service worker (/sw.js), which keeps the static files on the tablet so
// a page reloaded on a shaky school network still draws at once. Pages stay live: see sw.js.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      // Without a worker the site works as before, only without the cache.
    });
  });
}
