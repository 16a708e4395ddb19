"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal built on the native <dialog> element: focus trapping, Escape and the backdrop come from
 * the browser. `onClose` runs on Escape; pass `dismissable={false}` for choices that must be made.
 */
export function ModalDialog({
  open,
  title,
  onClose,
  children,
  footer,
  dismissable = true,
  testId,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  dismissable?: boolean;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        if (dismissable) onClose();
      }}
      className="m-auto w-[min(34rem,92vw)] rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40 dark:backdrop:bg-black/60"
    >
      {open && (
        <div className="flex max-h-[80vh] flex-col">
          <header className="border-b border-slate-200 px-5 py-3">
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
          </header>
          <div className="overflow-y-auto px-5 py-4 text-sm">{children}</div>
          {footer && <footer className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">{footer}</footer>}
        </div>
      )}
    </dialog>
  );
}
