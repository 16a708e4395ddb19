/**
 * The person's colour-scheme choice and how it reaches the page. The `dark` class on <html> is
 * what the page is painted by (useColorScheme reads it); the choice is kept in localStorage, and
 * "system" (the default) follows the operating system's setting, also when it changes later.
 */
export type ThemePreference = "system" | "light" | "dark";

export const THEME_PREFERENCES: readonly ThemePreference[] = ["system", "light", "dark"];
export const THEME_STORAGE_KEY = "trellis-theme";

/**
 * Sets or clears the `dark` class from the saved choice and the system setting. Self-contained:
 * it is also sent to the browser as text in colorSchemeScript, before any bundle has loaded.
 */
export function applyColorScheme(storageKey: string): void {
  let saved: string | null = null;
  try {
    saved = window.localStorage.getItem(storageKey);
  } catch {
    // Storage can be blocked (privacy settings); then the system setting decides.
  }
  const dark = saved === "dark" || (saved !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
}

/** Applies the scheme now, again when the system setting changes, and when another tab saves a choice. */
function installColorScheme(storageKey: string, apply: (storageKey: string) => void): void {
  apply(storageKey);
  window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => apply(storageKey));
  window.addEventListener("storage", (event) => {
    if (event.key === storageKey || event.key === null) apply(storageKey);
  });
}

/** For a <script> in the page's <head>: runs before first paint, so a dark page never flashes light. */
export const colorSchemeScript = `(${installColorScheme.toString()})(${JSON.stringify(THEME_STORAGE_KEY)}, ${applyColorScheme.toString()});`;

/** The saved choice ("system" when none is saved or storage is blocked). */
export function readThemePreference(): ThemePreference {
  try {
    const saved = window.localStorage.getItem(THEME_STORAGE_KEY);
    return saved === "light" || saved === "dark" ? saved : "system";
  } catch {
    return "system";
  }
}

/** Saves the choice and repaints this tab (other tabs follow through the storage event). */
export function saveThemePreference(preference: ThemePreference): void {
  try {
    if (preference === "system") window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Storage blocked: the choice still applies to this page, below.
  }
  if (preference === "system") applyColorScheme(THEME_STORAGE_KEY);
  else document.documentElement.classList.toggle("dark", preference === "dark");
}
