{% autoescape off %}/* Snapclass service worker: the static files (hashed names) cache-first; everything else,
   pages and WebSockets alike, straight to the network. Served from /sw.js so its scope is the
   whole site. */
"use strict";

var CACHE = {{ cache_json }};
var PRECACHE = {{ urls_json }};
var STATIC_PREFIX = {{ static_prefix_json }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

// An older release's cache holds files no page asks for any more.
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.indexOf("snapclass-static-") === 0 && name !== CACHE;
        }).map(function (name) { return caches.delete(name); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  // Not respondWith: the browser fetches pages, forms and live fragments as it would anyway.
  if (url.origin !== self.location.origin || url.pathname.indexOf(STATIC_PREFIX) !== 0) return;
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (hit) {
        if (hit) return hit;
        return fetch(request).then(function (response) {
          if (response.ok) cache.put(request, response.clone());
          return response;
        });
      });
    })
  );
});
{% endautoescape %}
