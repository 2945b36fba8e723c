// The orders a teacher may put the console's skills tiles in, by their data- attributes: a
// tile without a figure goes last; ties keep the order of names.

function number(tile, name, missing) {
  const value = parseFloat(tile.dataset[name]);
  return isNaN(value) ? missing : value;
}

export const ORDERS = {
  name: (a, b) => a.dataset.name.localeCompare(b.dataset.name),
  rt: (a, b) => number(a, "rt", Infinity) - number(b, "rt", Infinity),
  accuracy: (a, b) => number(a, "accuracy", Infinity) - number(b, "accuracy", Infinity),
  struggling: (a, b) => number(b, "struggling", 0) - number(a, "struggling", 0) || ORDERS.accuracy(a, b),
};

// The tiles in the named order (an unknown name: by name), as a new array.
export function sortTiles(tiles, orderName) {
  const order = ORDERS[orderName] || ORDERS.name;
  return Array.from(tiles).sort((a, b) => order(a, b) || ORDERS.name(a, b));
}
