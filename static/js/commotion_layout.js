// How large Commotion's centre piles are drawn: the largest pile card (at most PILE_MAX px
// wide, never under PILE_MIN) with which every pile fits the centre box whole. Every column
// count is tried, and the one that allows the widest card is kept.
export const PILE_MIN = 56;
export const PILE_MAX = 112;
export const PILE_GAP = 10;
// A card's height over its width.
const PILE_RATIO = 1.4;

export function pileWidth(count, width, height) {
  let best = PILE_MIN;
  for (let cols = 1; cols <= count; cols++) {
    const rows = Math.ceil(count / cols);
    const byWidth = (width - PILE_GAP * (cols - 1)) / cols;
    const byHeight = (height - PILE_GAP * (rows - 1)) / rows / PILE_RATIO;
    best = Math.max(best, Math.min(byWidth, byHeight, PILE_MAX));
  }
  return Math.floor(best);
}
