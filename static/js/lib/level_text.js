// An adaptive table's level as the badge says it ("Level 3 of 9"): its rung counted from one.
import { fmt } from "./format.js";

export function levelText(template, adaptive) {
  return fmt(template, { n: adaptive.rung + 1, total: adaptive.rungs });
}
