"use client";

import { memo } from "react";
import { CircleAlert } from "lucide-react";
import { countOf, type IssueDetail } from "@/contract";
import { useEditorStore } from "../store";

const NO_ISSUES: IssueDetail[] = [];

export function useBlockIssues(blockId: string): IssueDetail[] {
  return useEditorStore((state) => state.issues.byBlock[blockId] ?? NO_ISSUES);
}

/** The validation badge on a node: a count and the first problem, all of them on hover. */
export const NodeIssues = memo(function NodeIssues({ blockId }: { blockId: string }) {
  const issues = useBlockIssues(blockId);
  if (issues.length === 0) return null;
  const first = issues[0]!;
  return (
    <div
      className="flex items-start gap-1 border-t border-red-100 bg-red-50 px-3 py-1 text-[11px] text-red-700"
      data-testid={`block-issues-${blockId}`}
      title={issues.map((issue) => issue.message).join("\n")}
      role="status"
    >
      <CircleAlert className="mt-px h-3 w-3 shrink-0" aria-hidden />
      <span className="line-clamp-2">
        {issues.length > 1 && <strong>{countOf(issues.length, "problem")} · </strong>}
        {first.message}
      </span>
    </div>
  );
});
