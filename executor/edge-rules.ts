import { blockLabel } from "./graph";
import type { BlockEntry, EdgeEntry } from "./workflow-entries";

/**
 * The rules one edge must follow on its own: a handle its source offers, no edge into the start
 * block or back to its source, and container boundaries. The save-time validator (every edge of
 * a document) and the canvas's connection checker (one candidate per hover) both ask here, so
 * they cannot disagree and give the same messages.
 */

export type EdgeKind = EdgeEntry["kind"];

export interface EdgeRuleProblem {
  /** The edge field the problem is about, for the issue path (`edges[3].target`); null for the edge as a whole. */
  field: "sourceHandle" | "target" | null;
  message: string;
}

export type EdgeVerdict = { kind: EdgeKind; problem?: undefined } | { kind?: undefined; problem: EdgeRuleProblem };

function where(entry: BlockEntry): string {
  return entry.block.parentId ? `inside '${entry.block.parentId}'` : "at the top level";
}

/** Which kind of edge this is, or why it may not exist. `offered` is the source's handles for its current config. */
export function judgeEdge(
  source: BlockEntry,
  target: BlockEntry,
  handle: string,
  offered: ReadonlyArray<string>,
): EdgeVerdict {
  if (!offered.includes(handle)) {
    const list = offered.length ? offered.join(", ") : "none";
    return {
      problem: {
        field: "sourceHandle",
        message: `Block ${blockLabel(source.block)} has no '${handle}' handle (it offers: ${list})`,
      },
    };
  }
  if (target.info?.entry) {
    return {
      problem: {
        field: "target",
        message: `The start block ${blockLabel(target.block)} accepts no incoming edges (edge from ${blockLabel(source.block)})`,
      },
    };
  }
  if (source === target) {
    return {
      problem: {
        field: null,
        message: `Block ${blockLabel(source.block)} is connected to itself; repeat work with a loop container`,
      },
    };
  }
  const sourceParent = source.block.parentId ?? null;
  const targetParent = target.block.parentId ?? null;
  if (handle === "body") {
    if (targetParent === source.block.id) return { kind: "body" };
    return {
      problem: {
        field: null,
        message: `A body edge must go from a container to a block inside it, but ${blockLabel(target.block)} is not inside ${blockLabel(source.block)}`,
      },
    };
  }
  if (sourceParent === targetParent) return { kind: "flow" };
  if (target.block.id === sourceParent) return { kind: "iterationEnd" };
  return {
    problem: {
      field: null,
      message: `The edge from ${blockLabel(source.block)} (${where(source)}) to ${blockLabel(target.block)} (${where(target)}) crosses a container boundary; use the container's body and out handles`,
    },
  };
}

/** Two edges are the same connection when they join the same blocks from the same handle. Block ids hold no spaces (BLOCK_ID_PATTERN). */
export function connectionKey(sourceId: string, targetId: string, handle: string): string {
  return `${sourceId} ${targetId} ${handle}`;
}

export function duplicateEdgeMessage(source: BlockEntry, target: BlockEntry, handle: string): string {
  return `${blockLabel(source.block)} is already connected to ${blockLabel(target.block)} from its '${handle}' handle`;
}
