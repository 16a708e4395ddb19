"use client";

import dynamic from "next/dynamic";
import type { CodeEditorProps } from "./code-editor-props";

/**
 * The code editor, loaded on first use: CodeMirror stays out of the bundles of pages that show
 * none. While it loads, an empty box of the same kind holds its place.
 */
export const CodeEditor = dynamic<CodeEditorProps>(() => import("./code-editor-view"), {
  ssr: false,
  loading: () => (
    <div
      className="h-20 animate-pulse rounded border border-slate-300 bg-slate-50 dark:border-slate-600 dark:bg-slate-900"
      aria-busy="true"
    />
  ),
});
