import Color from "colorjs.io";
import { PNG } from "pngjs";

/** A box in CSS pixels, as Playwright's boundingBox() gives it. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** WCAG 2.1 contrast ratio of two CSS colours (any syntax the browser computes: rgb, lab, oklch ...). */
export function contrast(a: string | Color, b: string | Color): number {
  return new Color(a).contrast(new Color(b), "WCAG21");
}

/** WCAG relative luminance: 0 is black, 1 is white. */
export function luminance(colour: string | Color): number {
  return new Color(colour).luminance;
}

/** A page screenshot's pixels (taken at device scale 1, so CSS pixels are image pixels). */
export class Screenshot {
  private readonly png: PNG;

  constructor(buffer: Buffer) {
    this.png = PNG.sync.read(buffer);
  }

  private *pixels(box: Box): Generator<[number, number, number]> {
    const left = Math.max(0, Math.round(box.x));
    const top = Math.max(0, Math.round(box.y));
    const right = Math.min(this.png.width, Math.round(box.x + box.width));
    const bottom = Math.min(this.png.height, Math.round(box.y + box.height));
    for (let y = top; y < bottom; y++) {
      for (let x = left; x < right; x++) {
        const at = (y * this.png.width + x) * 4;
        yield [this.png.data[at]!, this.png.data[at + 1]!, this.png.data[at + 2]!];
      }
    }
  }

  /** The colour most pixels in the box have: the background of that region. */
  dominant(box: Box): Color {
    const counts = new Map<string, number>();
    for (const [r, g, b] of this.pixels(box)) {
      const key = `${r},${g},${b}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const [top] = [...counts].sort((a, b) => b[1] - a[1]);
    if (!top) throw new Error(`No pixels in the box ${JSON.stringify(box)}`);
    return new Color(`rgb(${top[0]})`);
  }

  /** The pixel in the box that stands out most from `background`: the core of text drawn on it. */
  strongestAgainst(box: Box, background: Color): Color {
    let best = background;
    let bestContrast = 1;
    for (const [r, g, b] of this.pixels(box)) {
      const colour = new Color(`rgb(${r},${g},${b})`);
      const ratio = contrast(colour, background);
      if (ratio > bestContrast) [best, bestContrast] = [colour, ratio];
    }
    return best;
  }
}
