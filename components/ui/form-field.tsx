import type { ReactNode } from "react";

/** The look of a text field or select inside a FormField. */
export const FIELD_INPUT_CLASS = "rounded border border-slate-300 px-2 py-1 text-sm text-slate-900";

/**
 * A labelled field of a settings or creation form: the label's text above its control, both
 * inside one <label>, so the control is named by the text a person reads. `className` sizes the
 * field in its row (`min-w-48 flex-1`, `w-28`).
 */
export function FormField({
  label,
  className,
  children,
}: {
  label: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={`flex flex-col gap-1 text-xs text-slate-600${className ? ` ${className}` : ""}`}>
      {label}
      {children}
    </label>
  );
}
