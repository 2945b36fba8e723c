// ESLint for the site's scripts (static/js: ES modules the browser loads as they are, no build
// step) and their Node tests (tests/js). `make check` runs it; a warning fails it too.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, htmx: "readonly" },
    },
  },
  {
    files: ["tests/js/**/*.mjs", "eslint.config.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.node },
    },
  },
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
];
