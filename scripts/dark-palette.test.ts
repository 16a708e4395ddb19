import Color from "colorjs.io";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DARK_CARD, DARK_PALETTE_CSS, darkPaletteCss, darkValues, readPalette, TAILWIND_THEME } from "./dark-palette";

const palette = readPalette(readFileSync(TAILWIND_THEME, "utf8"));
const css = readFileSync(DARK_PALETTE_CSS, "utf8");
const dark = darkValues(palette);
/** A dark-theme colour by its Tailwind name: `white` or `<hue>-<step>`. */
const darkColour = (name: string) =>
  name === "white" ? DARK_CARD : dark.get(name.replace(/-\d+$/, ""))![name.replace(/^.*-/, "") as "50"];
const contrast = (text: string, background: string) =>
  new Color(darkColour(text)).contrast(new Color(darkColour(background)), "WCAG21");
const CHROMATIC = [
  "red",
  "orange",
  "amber",
  "yellow",
  "lime",
  "green",
  "emerald",
  "teal",
  "cyan",
  "sky",
  "blue",
  "indigo",
  "violet",
  "purple",
  "fuchsia",
  "pink",
  "rose",
];

/** The declarations of the first rule whose selector is `selector`, as a map. */
function declarations(selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  expect(start, `no rule for ${selector}`).toBeGreaterThanOrEqual(0);
  const body = css.slice(css.indexOf("{", start) + 1, css.indexOf("}", start));
  return new Map([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((match) => [match[1]!, match[2]!.trim()]));
}

describe("the dark palette", () => {
  it("is the file the generator writes (run `npx tsx scripts/dark-palette.ts` after changing it)", () => {
    expect(css).toBe(darkPaletteCss(palette));
  });

  it("redefines every Tailwind colour under .dark", () => {
    const rule = declarations(".dark");
    expect(rule.get("--color-white")).toBe(DARK_CARD);
    for (const [hue] of palette) expect(rule.get(`--color-${hue}-50`), hue).toBeDefined();
    expect(palette.size).toBeGreaterThanOrEqual(22);
  });

  it("paints the page and cards dark, cards a step above the page", () => {
    const page = new Color(darkColour("slate-50")).luminance;
    const card = new Color(DARK_CARD).luminance;
    expect(page).toBeLessThan(0.02);
    expect(card).toBeLessThan(0.03);
    expect(card).toBeGreaterThan(page);
    expect(new Color(darkColour("slate-100")).luminance).toBeGreaterThan(card);
  });

  it("keeps slate text readable on the page, on cards and on hovered rows", () => {
    for (const background of ["slate-50", "white", "slate-100"]) {
      for (const text of ["slate-500", "slate-600", "slate-700", "slate-800", "slate-900"]) {
        expect(contrast(text, background), `${text} on ${background}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it("keeps each hue's text readable on its own tints and on cards (alerts, badges, links)", () => {
    for (const hue of CHROMATIC) {
      expect(contrast(`${hue}-700`, `${hue}-50`), `text-${hue}-700 on bg-${hue}-50`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(`${hue}-800`, `${hue}-100`), `text-${hue}-800 on bg-${hue}-100`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(`${hue}-900`, `${hue}-50`), `text-${hue}-900 on bg-${hue}-50`).toBeGreaterThanOrEqual(4.5);
      for (const step of ["600", "700", "800"]) {
        expect(contrast(`${hue}-${step}`, "white"), `text-${hue}-${step} on a card`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });

  it("leaves white text on a solid fill (bg-indigo-600 text-white, .btn-primary) as the light theme draws it", () => {
    const solid = declarations(".dark :is(.text-white, .btn-primary)");
    expect(solid.get("--color-white")).toBe("#fff");
    for (const hue of CHROMATIC) {
      for (const step of ["600", "700"] as const)
        expect(solid.get(`--color-${hue}-${step}`)).toBe(palette.get(hue)![step]);
    }
    for (const fill of ["indigo-600", "indigo-700", "red-600", "emerald-700"]) {
      const [hue, step] = fill.split("-") as [string, "600" | "700"];
      expect(
        new Color("#fff").contrast(new Color(solid.get(`--color-${fill}`)!), "WCAG21"),
        `white on ${fill}`,
      ).toBeGreaterThanOrEqual(4.5);
      expect(solid.get(`--color-${fill}`)).toBe(palette.get(hue)![step]);
    }
  });
});
