"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { errorText } from "./format";

/**
 * What a settings list shows before its data: the load error with Retry, or "Loading…". Once
 * loaded, `children` gets the data (and `empty` is shown instead when `isEmpty` says so).
 */
export function QueryState<T>({
  query,
  what,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  /** "the keys", "the secrets": named in the error. */
  what: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isError) {
    return (
      <p role="alert" className="flex items-center gap-2 text-sm text-red-700">
        Could not load {what}: {errorText(query.error)}
        <button type="button" className="btn-secondary" onClick={() => void query.refetch()}>
          Retry
        </button>
      </p>
    );
  }
  if (query.data === undefined) return <p className="text-sm text-slate-500">Loading…</p>;
  if (isEmpty?.(query.data)) return <p className="text-sm text-slate-500">{empty}</p>;
  return <>{children(query.data)}</>;
}
