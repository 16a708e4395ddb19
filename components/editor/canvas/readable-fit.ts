/**
 * The least zoom a fit after auto-layout goes to: block names (14 px) still read at about 9 px.
 * Fitting a long workflow whole went to a tenth of the size, where text is a few pixels tall.
 */
export const READABLE_ZOOM = 0.65;

export interface PlacedBox {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The blocks to fit the view to so they read: every one when the whole workflow fits at
 * READABLE_ZOOM, else those from its left (where it starts, laid out left to right) that fit in
 * the canvas's width at that zoom. `padding` is the share of the canvas fitting keeps free.
 */
export function readableFitIds(boxes: ReadonlyArray<PlacedBox>, canvasWidth: number, padding = 0.2): string[] {
  if (boxes.length === 0) return [];
  const left = Math.min(...boxes.map((box) => box.x));
  const span = (canvasWidth * (1 - padding)) / READABLE_ZOOM;
  const inView = boxes.filter((box) => box.x + box.width <= left + span);
  return (inView.length > 0 ? inView : [boxes.reduce((first, box) => (box.x < first.x ? box : first))]).map(
    (box) => box.id,
  );
}
