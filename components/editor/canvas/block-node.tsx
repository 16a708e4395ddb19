"use client";

import { memo, useMemo } from "react";
import type { NodeProps } from "@xyflow/react";
import { getBlockDefinition } from "@/blocks";
import type { EditorNode } from "../graph/flow-types";
import { blockTypeCaption } from "./block-caption";
import { BlockIcon } from "./block-icon";
import { SourceHandleRows, TargetHandle } from "./block-handles";
import { NodeIssues, useBlockHasProblems } from "./node-issues";
import { RunBadge } from "./run-badge";
import { NodeAsks, useBlockRunOutline } from "../runs";
import { nodeAsBlock } from "./node-as-block";

/**
 * A block on the canvas. Memoised: React Flow re-renders only nodes whose props changed. Its size
 * and handle rows are mirrored in estimated-node.ts (bounds of blocks not drawn yet): keep both in step.
 */
export const BlockNode = memo(function BlockNode({ id, data, selected, parentId }: NodeProps<EditorNode>) {
  const definition = getBlockDefinition(data.type);
  const handles = useMemo(
    () => definition?.sourceHandles(nodeAsBlock(id, data, parentId)) ?? [],
    [definition, id, data, parentId],
  );
  const hasIssues = useBlockHasProblems(id);
  const runOutline = useBlockRunOutline(id);
  const caption = blockTypeCaption(data.name, definition?.label, data.type);
  const border = selected
    ? "border-indigo-500 ring-2 ring-indigo-200"
    : hasIssues
      ? "border-red-400"
      : "border-slate-300";
  return (
    <div
      data-testid={`block-${id}`}
      data-block-name={data.name}
      aria-label={`${definition?.label ?? data.type} block ${data.name}`}
      className={`w-60 rounded-lg border bg-white ${border} ${runOutline} ${data.enabled ? "" : "opacity-50"}`}
    >
      {definition?.acceptsInput !== false && <TargetHandle blockId={id} />}
      {/* The header keeps the height of two lines when the type line is left out (estimated-node.ts counts on it). */}
      <div className="flex min-h-[52.5px] items-center gap-2 px-3 py-2">
        <span className="flex h-7 w-7 shrink-0 items-center justify-center rounded bg-slate-100 text-slate-700">
          <BlockIcon name={definition?.icon ?? "Box"} className="h-4 w-4" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="truncate text-sm font-medium" data-testid={`block-name-${id}`}>
            {data.name}
          </div>
          {caption && <div className="truncate text-[11px] text-slate-500">{caption}</div>}
        </div>
      </div>
      <SourceHandleRows blockId={id} handles={handles} />
      <NodeIssues blockId={id} />
      <RunBadge blockId={id} />
      {definition?.waitsForPeople && <NodeAsks blockId={id} />}
    </div>
  );
});
