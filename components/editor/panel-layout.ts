import type { LayoutStorage } from "react-resizable-panels";

/**
 * The editor's panel sizes: what each panel starts at, how far it may go, and where they are kept
 * between visits (localStorage, per browser, under `trellis-editor-*`).
 */

/** The width of a collapsed side panel: one column of icons. */
export const COLLAPSED_SIDE_PX = 44;

export const PALETTE_SIZES = { default: 224, min: 160, max: 400 } as const;
export const INSPECTOR_SIZES = { default: 320, min: 260, max: 640 } as const;
export const RUN_PANEL_SIZES = { default: 288, min: 120 } as const;

/** Narrower than this the palette starts collapsed, so the canvas keeps at least half the width. */
export const NARROW_WINDOW_PX = 1024;

/** localStorage, or nothing where there is none (server rendering, a browser that refuses it). */
export const panelStorage: LayoutStorage = {
  getItem(key) {
    try {
      return typeof window === "undefined" ? null : window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  setItem(key, value) {
    try {
      if (typeof window !== "undefined") window.localStorage.setItem(key, value);
    } catch {
      // A full or refused storage only means the sizes are not remembered.
    }
  },
};
