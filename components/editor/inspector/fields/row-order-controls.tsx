"use client";

import { ArrowDown, ArrowUp, X } from "lucide-react";
import { moved } from "./reorder";

const iconButton = "rounded p-0.5 text-slate-400 hover:bg-slate-100 hover:text-slate-700 disabled:opacity-30";

/** Move up, move down and remove for one row of a list editor; `onChange` gets the whole new list. */
export function RowOrderControls<T>({
  rows,
  index,
  onChange,
  removeLabel,
}: {
  rows: readonly T[];
  index: number;
  onChange: (rows: T[]) => void;
  removeLabel: string;
}) {
  return (
    <>
      <button
        type="button"
        aria-label="Move up"
        className={iconButton}
        disabled={index === 0}
        onClick={() => onChange(moved(rows, index, index - 1))}
      >
        <ArrowUp className="h-3.5 w-3.5" aria-hidden />
      </button>
      <button
        type="button"
        aria-label="Move down"
        className={iconButton}
        disabled={index === rows.length - 1}
        onClick={() => onChange(moved(rows, index, index + 1))}
      >
        <ArrowDown className="h-3.5 w-3.5" aria-hidden />
      </button>
      <button
        type="button"
        aria-label={removeLabel}
        className={iconButton}
        onClick={() => onChange(rows.filter((_, at) => at !== index))}
      >
        <X className="h-3.5 w-3.5" aria-hidden />
      </button>
    </>
  );
}
