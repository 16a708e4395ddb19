"use client";

import { useSyncExternalStore } from "react";

export type ColorScheme = "light" | "dark";

/**
 * The scheme the page is painted in: `dark` while `<html>` has the `dark` class. The class is the
 * one source of truth (set before first paint from the saved choice or the system setting, and by
 * the toggle), so the canvas and the code editor follow it without a second piece of state.
 */
export function useColorScheme(): ColorScheme {
  return useSyncExternalStore(subscribe, readScheme, () => "light");
}

function readScheme(): ColorScheme {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}
