"use client";

import { memo, useMemo } from "react";
import { NodeResizer, type NodeProps } from "@xyflow/react";
import { getBlockDefinition } from "@/blocks";
import type { EditorNode } from "../graph/flow-types";
import { useEditorStore, useEditorStoreApi } from "../store";
import { blockTypeCaption } from "./block-caption";
import { BlockIcon } from "./block-icon";
import { BodyHandle, SourceHandleRows, TargetHandle } from "./block-handles";
import { NodeIssues, useBlockHasProblems } from "./node-issues";
import { RunBadge } from "./run-badge";
import { useBlockRunOutline } from "../runs";
import { nodeAsBlock } from "./node-as-block";

/** A loop or parallel container: a resizable frame whose children are React Flow sub-flow nodes. */
export const ContainerNode = memo(function ContainerNode({ id, data, selected, parentId }: NodeProps<EditorNode>) {
  const store = useEditorStoreApi();
  const readOnly = useEditorStore((state) => state.readOnly);
  const definition = getBlockDefinition(data.type);
  const handles = useMemo(
    () => definition?.sourceHandles(nodeAsBlock(id, data, parentId)) ?? [],
    [definition, id, data, parentId],
  );
  const body = handles.find((handle) => handle.variant === "body");
  const outer = handles.filter((handle) => handle.variant !== "body");
  const hasIssues = useBlockHasProblems(id);
  const runOutline = useBlockRunOutline(id);
  const caption = blockTypeCaption(data.name, definition?.label, data.type);
  const border = selected ? "border-indigo-500" : hasIssues ? "border-red-400" : "border-violet-300";
  return (
    <div
      data-testid={`block-${id}`}
      data-block-name={data.name}
      aria-label={`${definition?.label ?? data.type} container ${data.name}`}
      className={`relative h-full w-full rounded-xl border-2 border-dashed bg-violet-50/40 ${border} ${runOutline} ${data.enabled ? "" : "opacity-50"}`}
    >
      <NodeResizer
        isVisible={selected && !readOnly}
        minWidth={260}
        minHeight={160}
        onResizeStart={() => store.getState().beginGesture()}
        onResizeEnd={() => store.getState().endGesture()}
      />
      <TargetHandle blockId={id} />
      <div className="flex items-start justify-between gap-2 rounded-t-xl bg-white/80 px-3 py-2">
        <div className="flex min-w-0 items-center gap-2">
          <BlockIcon name={definition?.icon ?? "Box"} className="h-4 w-4 text-violet-700" />
          <span className="truncate text-sm font-medium" data-testid={`block-name-${id}`}>
            {data.name}
          </span>
          {caption && <span className="text-[11px] text-slate-500">{caption}</span>}
        </div>
        <SourceHandleRows blockId={id} handles={outer} />
      </div>
      {body && <BodyHandle blockId={id} handle={body} />}
      {body && <span className="absolute left-7 top-[51px] text-[10px] text-violet-700">body</span>}
      <div className="absolute bottom-0 left-0 right-0 rounded-b-xl bg-white/80">
        <NodeIssues blockId={id} />
        <RunBadge blockId={id} />
      </div>
    </div>
  );
});
