// The scripts as the browser loads them: ES modules named by the templates, importing each
// other by relative address, sharing nothing through window.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const JS = join(ROOT, "static/js");
const TEMPLATES = join(ROOT, "templates");

function files(folder, suffix) {
  return readdirSync(folder, { recursive: true })
    .map((name) => join(folder, name))
    .filter((path) => path.endsWith(suffix));
}

const SCRIPTS = files(JS, ".js");
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^"';]*?from\s*["']([^"']+)["']\s*;/g;

function importsOf(path) {
  return [...readFileSync(path, "utf8").matchAll(IMPORT)].map((match) => resolve(dirname(path), match[1]));
}

// Every tag in a template that names a script under static/js: [template, tag, path].
function scriptTags() {
  const tags = [];
  files(TEMPLATES, ".html").forEach((template) => {
    const text = readFileSync(template, "utf8");
    for (const match of text.matchAll(/<(script|link)\b[^>]*\{% static '(js\/[^']+)' %\}[^>]*>/g)) {
      tags.push([relative(ROOT, template), match[0], join(ROOT, "static", match[2])]);
    }
  });
  return tags;
}

test("there are scripts and tags to check", () => {
  assert.ok(SCRIPTS.length >= 15, SCRIPTS.length);
  assert.ok(scriptTags().length >= 15, scriptTags().length);
});

test("every import names a module that exists, by a relative address", () => {
  const broken = [];
  SCRIPTS.forEach((path) => {
    const text = readFileSync(path, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(dirname(path), match[1]);
      if (!match[1].startsWith(".") || !existsSync(target)) broken.push(relative(ROOT, path) + ": " + match[1]);
    }
  });
  assert.deepEqual(broken, []);
});

test("every script a template names is a module that exists", () => {
  const wrong = scriptTags().filter(([, tag, path]) => {
    const loaded = tag.startsWith("<script") ? /\btype="module"/.test(tag) : /\brel="modulepreload"/.test(tag);
    return !loaded || !existsSync(path);
  });
  assert.deepEqual(wrong, []);
});

test("every script is named by a template or imported by one that is", () => {
  const reached = new Set();
  const visit = (path) => {
    if (reached.has(path)) return;
    reached.add(path);
    importsOf(path).forEach(visit);
  };
  scriptTags().forEach(([, , path]) => visit(path));
  assert.deepEqual(SCRIPTS.filter((path) => !reached.has(path)).map((path) => relative(ROOT, path)), []);
});

test("a modulepreload names only a module its page's scripts import", () => {
  // Over all templates at once: a page's layout and its includes preload for each other.
  const imported = new Set(SCRIPTS.flatMap(importsOf));
  const stray = scriptTags().filter(([, tag, path]) => tag.startsWith("<link") && !imported.has(path));
  assert.deepEqual(stray, []);
});

test("no script shares anything through window", () => {
  const shared = [];
  SCRIPTS.forEach((path) => {
    readFileSync(path, "utf8").split("\n").forEach((line, index) => {
      // Assigning to window or globalThis, or reading a name a script of the site once put there.
      if (/\b(window|globalThis|self)\.\w+\s*=[^=]/.test(line) || /\bwindow\.(Snapclass|RiffRaff)/.test(line)) {
        shared.push(relative(ROOT, path) + ":" + (index + 1) + ": " + line.trim());
      }
    });
  });
  assert.deepEqual(shared, []);
});

test("no script writes a close code as a number", () => {
  const server = readFileSync(join(ROOT, "classroom/sockets/close_codes.py"), "utf8");
  const codes = [...server.matchAll(/^\s+[A-Z_]+ = (\d{4})$/gm)].map((match) => match[1]);
  assert.ok(codes.length >= 8, "close codes found in the server's enum: " + codes);
  const written = [];
  SCRIPTS.forEach((path) => {
    const text = readFileSync(path, "utf8");
    codes.forEach((code) => {
      if (new RegExp("\\b" + code + "\\b").test(text)) written.push(relative(ROOT, path) + ": " + code);
    });
  });
  assert.deepEqual(written, []);
});
