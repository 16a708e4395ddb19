"use client";

import { useMemo } from "react";
import { fixListItems, type FixItem } from "../graph/issue-attention";
import { useEditorStore } from "../store";

/** The list of what to fix, in plain words, recomputed when the issues, the blocks or what was touched change. */
export function useFixList(): FixItem[] {
  const nodes = useEditorStore((state) => state.nodes);
  const issues = useEditorStore((state) => state.issues);
  const attention = useEditorStore((state) => state.attention);
  return useMemo(() => fixListItems(nodes, issues, attention), [nodes, issues, attention]);
}
