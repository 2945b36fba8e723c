// The WebSocket close codes the server ends a socket with, by name. The server defines them
// once (classroom/sockets/close_codes.py CloseCode) and every page carries them in the
// element below (templates/base.html); scripts compare with names, never with numbers.
const ELEMENT_ID = "snapclass-close-codes";

// The names the scripts use: a page without one of them is a server out of step, said at once.
export const USED = [
  "SILENT", "POLICY", "NEXT_GAME", "NO_SEAT", "REMOVED", "FORBIDDEN", "NOT_PLAYING", "REPLACED",
];

// {name: code} from the element's JSON, with a whole number for every name the scripts use.
export function parseCloseCodes(text) {
  const codes = JSON.parse(text);
  if (codes === null || typeof codes !== "object" || Array.isArray(codes)) {
    throw new TypeError("close codes: expected an object of name -> code");
  }
  USED.forEach((name) => {
    const code = codes[name];
    if (!Number.isInteger(code)) {
      throw new TypeError("close codes: no code for " + name);
    }
  });
  return Object.freeze({ ...codes });
}

let cached = null;

// The page's codes, read from its element the first time they are needed.
export function closeCodes() {
  if (cached === null) {
    const element = document.getElementById(ELEMENT_ID);
    if (!element) throw new Error("close codes: the page has no #" + ELEMENT_ID);
    cached = parseCloseCodes(element.textContent);
  }
  return cached;
}
