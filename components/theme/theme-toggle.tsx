"use client";

import { Monitor, Moon, Sun, type LucideIcon } from "lucide-react";
import { useSyncExternalStore } from "react";
import { readThemePreference, saveThemePreference, THEME_STORAGE_KEY, type ThemePreference } from "./color-scheme";

const OPTIONS: Array<{ value: ThemePreference; label: string; icon: LucideIcon; hint: string }> = [
  { value: "system", label: "System", icon: Monitor, hint: "Follow the system's light or dark setting" },
  { value: "light", label: "Light", icon: Sun, hint: "Always light" },
  { value: "dark", label: "Dark", icon: Moon, hint: "Always dark" },
];

/** Tells this tab's toggles that the saved choice changed (the storage event reaches only other tabs). */
const CHANGE_EVENT = "trellis-theme-change";

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY || event.key === null) onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

function choose(preference: ThemePreference) {
  saveThemePreference(preference);
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** System, light or dark, as three radio items for a menu; the choice is kept in this browser. */
export function ThemeToggle() {
  const preference = useSyncExternalStore(subscribe, readThemePreference, () => "system" as const);
  return (
    <div className="px-3 py-2" data-testid="theme-toggle">
      <p className="mb-1 text-xs text-slate-500" id="theme-toggle-label">
        Theme
      </p>
      <div
        role="group"
        aria-labelledby="theme-toggle-label"
        className="grid grid-cols-3 gap-0.5 rounded border border-slate-200 p-0.5"
      >
        {OPTIONS.map(({ value, label, icon: Icon, hint }) => (
          <button
            key={value}
            type="button"
            role="menuitemradio"
            aria-checked={preference === value}
            title={hint}
            onClick={() => choose(value)}
            className={`flex items-center justify-center gap-1 rounded px-1 py-1 text-xs ${
              preference === value ? "bg-slate-100 font-medium text-slate-900" : "text-slate-600 hover:bg-slate-50"
            }`}
          >
            <Icon size={12} aria-hidden /> {label}
          </button>
        ))}
      </div>
    </div>
  );
}
