// What a tablet reports of itself with its trials: screen size in CSS pixels and the display's
// frame interval, measured from requestAnimationFrame deltas (their median, so one late frame
// while the page loads does not count). The user agent the server reads from the request.

export const FRAMES_MEASURED = 30;

// The median of the deltas between frame times, to 0.1 ms; null with fewer than two times.
export function frameIntervalMs(times) {
  const deltas = [];
  for (let i = 1; i < times.length; i += 1) deltas.push(times[i] - times[i - 1]);
  if (!deltas.length) return null;
  deltas.sort((a, b) => a - b);
  const mid = deltas.length >> 1;
  const median = deltas.length % 2 ? deltas[mid] : (deltas[mid - 1] + deltas[mid]) / 2;
  return Math.round(median * 10) / 10;
}

// Resolves with the frame interval over `count` frames of `requestFrame` (the browser's
// requestAnimationFrame, or a test's stand-in).
export function measureFrameInterval(requestFrame, count = FRAMES_MEASURED) {
  return new Promise((resolve) => {
    const times = [];
    function frame(time) {
      times.push(time);
      if (times.length > count) resolve(frameIntervalMs(times));
      else requestFrame(frame);
    }
    requestFrame(frame);
  });
}

// The form fields of a device report (classroom/forms/devices.py).
export function deviceFields(screen, frameMs) {
  return {
    screen_width: String(Math.round(screen.width)),
    screen_height: String(Math.round(screen.height)),
    frame_interval_ms: String(frameMs),
  };
}

// The CSRF token base.html puts on the body for htmx, for a script's own POST.
export function csrfToken(body) {
  try {
    return JSON.parse(body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch {
    return "";
  }
}

// POST `fields` as a form to `url`; resolves with the JSON answer and whether it was taken.
export async function postFields(url, fields, token) {
  const body = new URLSearchParams(fields);
  const response = await fetch(url, {
    method: "POST",
    body,
    headers: { "X-CSRFToken": token },
    credentials: "same-origin",
  });
  let answer = {};
  try {
    answer = await response.json();
  } catch {
    answer = {};
  }
  return { ok: response.ok, answer };
}
