// Django's "%(name)s" and "%(name)d" placeholders, filled in on the page: the labels come
// translated from the server with their placeholders, the values from the table's view.
const PLACEHOLDER = /%\((\w+)\)[sd]/g;

// A placeholder with no value is left out, never shown to a child as "%(name)s".
export function fmt(template, values) {
  return template.replace(PLACEHOLDER, (_match, key) => (values[key] === undefined ? "" : values[key]));
}
