"use client";

import { memo } from "react";
import { CircleAlert, PencilLine } from "lucide-react";
import type { IssueDetail } from "@/contract";
import { isHint, nodeIssueText } from "../graph/issue-attention";
import { nodeById, useEditorStore } from "../store";

const NO_ISSUES: IssueDetail[] = [];

export function useBlockIssues(blockId: string): IssueDetail[] {
  return useEditorStore((state) => state.issues.byBlock[blockId] ?? NO_ISSUES);
}

export interface BlockIssueSplit {
  /** What a fresh block still needs, shown gently. */
  hints: IssueDetail[];
  /** Everything else: shown as errors. */
  problems: IssueDetail[];
  blockType: string;
}

/** A block's issues split into hints and problems by what the person has touched (issue-attention.ts). */
export function useBlockIssueSplit(blockId: string): BlockIssueSplit {
  const issues = useBlockIssues(blockId);
  const node = useEditorStore((state) => (issues.length > 0 ? nodeById(state.nodes, blockId) : undefined));
  const attention = useEditorStore((state) => state.attention);
  if (!node || issues.length === 0) return { hints: NO_ISSUES, problems: NO_ISSUES, blockType: "" };
  const hints: IssueDetail[] = [];
  const problems: IssueDetail[] = [];
  for (const issue of issues) (isHint(node, issue, attention) ? hints : problems).push(issue);
  return { hints, problems, blockType: node.data.type };
}

/** Whether the block has a problem to show in red (hints alone do not count). */
export function useBlockHasProblems(blockId: string): boolean {
  return useBlockIssueSplit(blockId).problems.length > 0;
}

/**
 * The validation line under a node: its problems in red (a count and the first, all on hover), or,
 * on a fresh block, what it still needs in neutral words.
 */
export const NodeIssues = memo(function NodeIssues({ blockId }: { blockId: string }) {
  const { hints, problems, blockType } = useBlockIssueSplit(blockId);
  const text = (issue: IssueDetail) => nodeIssueText(blockType, issue);
  if (problems.length > 0) {
    const first = problems[0]!;
    return (
      <div
        className="flex items-start gap-1 border-t border-red-100 bg-red-50 px-3 py-1 text-[11px] text-red-700"
        data-testid={`block-issues-${blockId}`}
        title={problems.map(text).join("\n")}
        role="status"
      >
        <CircleAlert className="mt-px h-3 w-3 shrink-0" aria-hidden />
        <span className="line-clamp-2">
          {problems.length > 1 && <strong>{problems.length} problems · </strong>}
          {text(first)}
        </span>
      </div>
    );
  }
  if (hints.length === 0) return null;
  return (
    <div
      className="flex items-start gap-1 border-t border-slate-100 bg-slate-50 px-3 py-1 text-[11px] text-slate-600"
      data-testid={`block-hints-${blockId}`}
      title={hints.map(text).join("\n")}
    >
      <PencilLine className="mt-px h-3 w-3 shrink-0" aria-hidden />
      <span className="line-clamp-2">{hints.map(text).join(" · ")}</span>
    </div>
  );
});
