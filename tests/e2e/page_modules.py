"""The page's ES modules, for browser tests to read what a script exports.

The site's scripts set no window globals: a test reaches a module's exports through the
module graph. ``import()`` of the address a page loaded a module from returns the very
instance the page runs, so this script, added to every browser context of the tests, imports
each module the page names (``<script type="module">`` and ``<link rel="modulepreload">``)
once the document is parsed (the page's own modules have run by then) and keeps its exports
in ``pageModules``, by file name without the hash: ``pageModules.palm_strike.tablet.view``,
``pageModules.table_socket.links``. It is the tests' own name, never the site's.
"""

from __future__ import annotations

# A name is there once its module has loaded: a test waits with
# `pageModules.palm_strike?.tablet.view` as it would for the view itself.
PAGE_MODULES_SCRIPT = """(() => {
  const modules = {};
  const stem = (url) => new URL(url).pathname.split("/").pop()
    .replace(/(\\.[0-9a-f]{12})?\\.js$/, "");
  const load = () => {
    document.querySelectorAll('script[type="module"][src], link[rel="modulepreload"][href]')
      .forEach((element) => {
        const url = element.src || element.href;
        import(url).then((exports) => { modules[stem(url)] = exports; });
      });
  };
  Object.defineProperty(window, "pageModules", { value: modules });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", load);
  else load();
})();"""
