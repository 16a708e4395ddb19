// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { colorSchemeScript, readThemePreference, saveThemePreference, THEME_STORAGE_KEY } from "./color-scheme";

/**
 * jsdom has no matchMedia: this one answers `prefers-color-scheme: dark` as the test's "system"
 * says, and tells listeners when the system setting changes, as a browser does.
 */
function emulateSystem(initiallyDark: boolean) {
  let dark = initiallyDark;
  const listeners = new Set<() => void>();
  window.matchMedia = ((query: string) => ({
    get matches() {
      return query === "(prefers-color-scheme: dark)" && dark;
    },
    media: query,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  })) as unknown as typeof window.matchMedia;
  return {
    set(value: boolean) {
      dark = value;
      for (const listener of listeners) listener();
    },
  };
}

const isDark = () => document.documentElement.classList.contains("dark");
/** Runs the head script as the browser does: as text, with nothing imported. */
// eslint-disable-next-line no-new-func -- the script is shipped as text; running it as text is the point
const runHeadScript = () => new Function(colorSchemeScript)();

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = "";
});
afterEach(() => localStorage.clear());

describe("the head script", () => {
  it("follows the system setting when nothing is saved, also when it changes later", () => {
    const system = emulateSystem(true);
    runHeadScript();
    expect(isDark()).toBe(true);
    system.set(false);
    expect(isDark()).toBe(false);
    system.set(true);
    expect(isDark()).toBe(true);
  });

  it("applies a saved choice over the system setting", () => {
    emulateSystem(true);
    localStorage.setItem(THEME_STORAGE_KEY, "light");
    runHeadScript();
    expect(isDark()).toBe(false);

    emulateSystem(false);
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    runHeadScript();
    expect(isDark()).toBe(true);
  });

  it("follows a choice saved in another tab", () => {
    emulateSystem(false);
    runHeadScript();
    expect(isDark()).toBe(false);
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    window.dispatchEvent(new StorageEvent("storage", { key: THEME_STORAGE_KEY, newValue: "dark" }));
    expect(isDark()).toBe(true);
  });
});

describe("saving a choice", () => {
  it("repaints at once and is read back; System forgets the choice and returns to the system setting", () => {
    emulateSystem(true);
    saveThemePreference("light");
    expect(isDark()).toBe(false);
    expect(readThemePreference()).toBe("light");
    saveThemePreference("dark");
    expect(isDark()).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    saveThemePreference("light");
    saveThemePreference("system");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(readThemePreference()).toBe("system");
    expect(isDark()).toBe(true);
  });

  it("reads an unknown stored value as System", () => {
    localStorage.setItem(THEME_STORAGE_KEY, "sepia");
    expect(readThemePreference()).toBe("system");
  });
});
