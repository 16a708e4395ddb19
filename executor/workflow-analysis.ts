import type { BlockTypeInfo, BlockTypeLookup } from "./block-type";
import { edgeHandle, normalizeBlockName, type WorkflowBlock, type WorkflowDocument, type WorkflowEdge } from "./document";
import type { IssueDetail } from "./errors";
import { blockLabel } from "./graph";
import { RESERVED_ROOTS } from "./reference-syntax";

/**
 * Structural checks of a workflow document: ids, names, types, containers and edges. The result
 * feeds the cycle, reachability and config checks and the graph builder.
 */

export interface BlockEntry {
  block: WorkflowBlock;
  index: number;
  info: BlockTypeInfo | undefined;
  /** Enabled, and every container around it enabled too. */
  active: boolean;
  normalizedName: string;
}

export interface EdgeEntry {
  edge: WorkflowEdge;
  index: number;
  source: BlockEntry;
  target: BlockEntry;
  handle: string;
  /** `flow` between blocks of one scope, `body` from a container into it, `iterationEnd` from inside a container back to it. */
  kind: "flow" | "body" | "iterationEnd";
}

export interface WorkflowAnalysis {
  document: WorkflowDocument;
  issues: IssueDetail[];
  blocks: BlockEntry[];
  byId: Map<string, BlockEntry>;
  byName: Map<string, BlockEntry>;
  /** Valid edges between active blocks. */
  edges: EdgeEntry[];
  entry: BlockEntry | undefined;
}

function checkIdentity(analysis: WorkflowAnalysis, lookup: BlockTypeLookup): void {
  const { issues } = analysis;
  analysis.document.blocks.forEach((block, index) => {
    const normalizedName = normalizeBlockName(block.name);
    const info = lookup(block.type);
    const entry: BlockEntry = { block, index, info, active: block.enabled && info !== undefined, normalizedName };
    analysis.blocks.push(entry);
    const sameId = analysis.byId.get(block.id);
    if (sameId) issues.push({ path: `blocks[${index}].id`, message: `Duplicate block id '${block.id}' (blocks ${blockLabel(sameId.block)} and ${blockLabel(block)})` });
    else analysis.byId.set(block.id, entry);
    const sameName = analysis.byName.get(normalizedName);
    if (sameName)
      issues.push({ path: `blocks[${index}].name`, message: `Block name ${blockLabel(block)} is already used by block ${blockLabel(sameName.block)} (names must differ ignoring case and spaces)` });
    else analysis.byName.set(normalizedName, entry);
    if ((RESERVED_ROOTS as ReadonlyArray<string>).includes(normalizedName))
      issues.push({ path: `blocks[${index}].name`, message: `Block name ${blockLabel(block)} is reserved for <${normalizedName}.…> references; choose another name` });
    if (!entry.info) issues.push({ path: `blocks[${index}].type`, message: `Block ${blockLabel(block)} has unknown block type '${block.type}'` });
  });
}

/** Containers: parents must exist and be loop or parallel blocks; a disabled container disables what is inside it. */
function checkContainers(analysis: WorkflowAnalysis): void {
  for (const entry of analysis.blocks) {
    const seen = new Set<string>([entry.block.id]);
    let parentId = entry.block.parentId;
    while (parentId) {
      const parent = analysis.byId.get(parentId);
      if (!parent) {
        if (parentId === entry.block.parentId)
          analysis.issues.push({ path: `blocks[${entry.index}].parentId`, message: `Block ${blockLabel(entry.block)} is inside '${parentId}', which does not exist` });
        entry.active = false;
        break;
      }
      if (parentId === entry.block.parentId && parent.info && !parent.info.container)
        analysis.issues.push({
          path: `blocks[${entry.index}].parentId`,
          message: `Block ${blockLabel(entry.block)} is inside ${blockLabel(parent.block)}, which is a ${parent.block.type} block, not a loop or parallel container`,
        });
      if (seen.has(parentId)) {
        analysis.issues.push({ path: `blocks[${entry.index}].parentId`, message: `Block ${blockLabel(entry.block)} is inside itself through its containers` });
        entry.active = false;
        break;
      }
      seen.add(parentId);
      if (!parent.block.enabled || !parent.info) entry.active = false;
      parentId = parent.block.parentId;
    }
  }
}

function checkEntry(analysis: WorkflowAnalysis): void {
  const starts = analysis.blocks.filter((entry) => entry.active && entry.info?.entry);
  if (starts.length === 0) analysis.issues.push({ path: "blocks", message: "The workflow needs one enabled start block" });
  for (const extra of starts.slice(1))
    analysis.issues.push({
      path: `blocks[${extra.index}]`,
      message: `Only one start block is allowed: found ${starts.map((entry) => blockLabel(entry.block)).join(", ")}`,
    });
  for (const start of starts)
    if (start.block.parentId) analysis.issues.push({ path: `blocks[${start.index}].parentId`, message: `The start block ${blockLabel(start.block)} cannot be inside a container` });
  analysis.entry = starts[0];
}

function classifyEdge(source: BlockEntry, target: BlockEntry, handle: string): EdgeEntry["kind"] | string {
  const sourceParent = source.block.parentId ?? null;
  const targetParent = target.block.parentId ?? null;
  if (handle === "body") {
    return targetParent === source.block.id ? "body" : `A body edge must go from a container to a block inside it, but ${blockLabel(target.block)} is not inside ${blockLabel(source.block)}`;
  }
  if (sourceParent === targetParent) return "flow";
  if (target.block.id === sourceParent) return "iterationEnd";
  const where = (entry: BlockEntry) => (entry.block.parentId ? `inside '${entry.block.parentId}'` : "at the top level");
  return `The edge from ${blockLabel(source.block)} (${where(source)}) to ${blockLabel(target.block)} (${where(target)}) crosses a container boundary; use the container's body and out handles`;
}

function checkEdges(analysis: WorkflowAnalysis): void {
  analysis.document.edges.forEach((edge, index) => {
    const source = analysis.byId.get(edge.source);
    const target = analysis.byId.get(edge.target);
    if (!source) analysis.issues.push({ path: `edges[${index}].source`, message: `Edge '${edge.id}' starts at block '${edge.source}', which does not exist` });
    if (!target) analysis.issues.push({ path: `edges[${index}].target`, message: `Edge '${edge.id}' ends at block '${edge.target}', which does not exist` });
    if (!source || !target || !source.active || !target.active || !source.info || !target.info) return;
    const handle = edgeHandle(edge);
    const offered = source.info.sourceHandles(source.block);
    if (!offered.includes(handle)) {
      const list = offered.length ? offered.join(", ") : "none";
      analysis.issues.push({ path: `edges[${index}].sourceHandle`, message: `Block ${blockLabel(source.block)} has no '${handle}' handle (it offers: ${list})` });
      return;
    }
    if (target.info.entry) {
      analysis.issues.push({ path: `edges[${index}].target`, message: `The start block ${blockLabel(target.block)} accepts no incoming edges (edge from ${blockLabel(source.block)})` });
      return;
    }
    if (source === target) {
      analysis.issues.push({ path: `edges[${index}]`, message: `Block ${blockLabel(source.block)} is connected to itself; repeat work with a loop container` });
      return;
    }
    const kind = classifyEdge(source, target, handle);
    if (kind !== "flow" && kind !== "body" && kind !== "iterationEnd") {
      analysis.issues.push({ path: `edges[${index}]`, message: kind });
      return;
    }
    analysis.edges.push({ edge, index, source, target, handle, kind });
  });
}

export function analyzeWorkflow(document: WorkflowDocument, lookup: BlockTypeLookup): WorkflowAnalysis {
  const analysis: WorkflowAnalysis = { document, issues: [], blocks: [], byId: new Map(), byName: new Map(), edges: [], entry: undefined };
  checkIdentity(analysis, lookup);
  checkContainers(analysis);
  checkEntry(analysis);
  checkEdges(analysis);
  return analysis;
}
