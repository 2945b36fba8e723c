// How long a page waits before it knocks again at a server that dropped it: half to all of a
// ceiling that doubles with each attempt up to maxMs. The random half spreads a class's
// tablets over the interval, so they do not all knock at once when the Wi-Fi comes back.
export function backoffMs(attempt, { firstMs, maxMs }, random = Math.random) {
  const ceiling = Math.min(firstMs * Math.pow(2, attempt), maxMs);
  return ceiling / 2 + random() * (ceiling / 2);
}
