import { Handle, Position } from "@xyflow/react";
import type { HandleSpec } from "@/blocks";

const VARIANT_COLOURS: Record<HandleSpec["variant"], string> = {
  default: "!bg-slate-500",
  error: "!bg-red-500",
  branch: "!bg-amber-500",
  body: "!bg-violet-500",
};

const LABEL_COLOURS: Record<HandleSpec["variant"], string> = {
  default: "text-slate-500",
  error: "text-red-600",
  branch: "text-amber-700",
  body: "text-violet-700",
};

export function TargetHandle({ blockId }: { blockId: string }) {
  return (
    <Handle
      type="target"
      position={Position.Left}
      className="!h-3 !w-3 !border-2 !border-white !bg-slate-500"
      data-testid={`handle-${blockId}-in`}
      aria-label="input"
    />
  );
}

/** One row per source handle, label beside its dot, so branches and `error` read at a glance. */
export function SourceHandleRows({ blockId, handles }: { blockId: string; handles: HandleSpec[] }) {
  if (handles.length === 0) return null;
  return (
    <div className="flex flex-col items-end gap-1 py-1">
      {handles.map((handle) => (
        <div key={handle.id} className="relative flex h-4 items-center pr-2">
          <span className={`text-[10px] leading-none ${LABEL_COLOURS[handle.variant]}`}>{handle.label}</span>
          <Handle
            type="source"
            id={handle.id}
            position={Position.Right}
            className={`!h-3 !w-3 !border-2 !border-white ${VARIANT_COLOURS[handle.variant]}`}
            style={{ right: -9 }}
            data-testid={`handle-${blockId}-${handle.id}`}
            aria-label={`${handle.label} output`}
          />
        </div>
      ))}
    </div>
  );
}

export function BodyHandle({ blockId, handle }: { blockId: string; handle: HandleSpec }) {
  return (
    <Handle
      type="source"
      id={handle.id}
      position={Position.Right}
      className={`!h-3 !w-3 !border-2 !border-white ${VARIANT_COLOURS.body}`}
      style={{ left: 12, top: 58, right: "auto" }}
      data-testid={`handle-${blockId}-${handle.id}`}
      aria-label={`${handle.label} output (inside)`}
    />
  );
}
