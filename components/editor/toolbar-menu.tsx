"use client";

import { MoreHorizontal, type LucideIcon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";

export interface ToolbarMenuItem {
  id: string;
  label: string;
  icon: LucideIcon;
  onSelect(): void;
  disabled?: boolean;
  /** The key that does the same, shown beside the label. */
  shortcut?: string;
}

/**
 * "More actions": the toolbar's less-used actions, in a menu where the window is too narrow to show
 * them inline (`className` says where it shows: `2xl:hidden` hides it where they are inline).
 */
export function ToolbarMenu({ items, className = "" }: { items: readonly ToolbarMenuItem[]; className?: string }) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const menuId = useId();
  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !container.current?.contains(event.target as Node))
        setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);
  return (
    <div ref={container} className={`relative ${className}`}>
      <button
        type="button"
        className="icon-btn"
        aria-label="More actions"
        title="More actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid="toolbar-more"
        onClick={() => setOpen((wasOpen) => !wasOpen)}
      >
        <MoreHorizontal className="h-4 w-4" aria-hidden />
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label="More actions"
          className="absolute right-0 z-40 mt-1 w-56 rounded border border-slate-200 bg-white py-1 text-sm shadow-lg"
          data-testid="toolbar-menu"
        >
          {items.map(({ id, label, icon: Icon, onSelect, disabled, shortcut }) => (
            <button
              key={id}
              type="button"
              role="menuitem"
              disabled={disabled}
              data-testid={`menu-${id}`}
              className="flex w-full items-center gap-2 px-3 py-1.5 text-left hover:bg-slate-100 disabled:opacity-40"
              onClick={() => {
                setOpen(false);
                onSelect();
              }}
            >
              <Icon className="h-4 w-4 text-slate-600" aria-hidden />
              <span className="flex-1">{label}</span>
              {shortcut && <kbd className="text-xs text-slate-400">{shortcut}</kbd>}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
