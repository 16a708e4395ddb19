import type { ReactNode } from "react";

/** A key cap, for shortcut lists. */
export function KeyboardKey({ children }: { children: ReactNode }) {
  return (
    <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-700 shadow-sm">
      {children}
    </kbd>
  );
}
