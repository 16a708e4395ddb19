import type { BlockTypeLookup } from "./block-type";
import {
  edgeHandle,
  normalizeBlockName,
  RETRIES_EXHAUSTED_HANDLE,
  type WorkflowDocument,
  type WorkflowEdge,
  type IssueDetail,
} from "@/contract";
import { parseEdgeCondition, type EdgeCondition } from "./edge-condition";
import { connectionKey, duplicateEdgeMessage, judgeEdge } from "./edge-rules";
import { blockLabel } from "./graph";
import { RESERVED_ROOTS } from "./reference-syntax";
import type { BlockEntry, EdgeEntry } from "./workflow-entries";

export type { BlockEntry, EdgeEntry } from "./workflow-entries";

/**
 * Structural checks of a workflow document: ids, names, types, containers and edges. The result
 * feeds the cycle, reachability and config checks and the graph builder.
 */

export interface WorkflowAnalysis {
  document: WorkflowDocument;
  issues: IssueDetail[];
  blocks: BlockEntry[];
  byId: Map<string, BlockEntry>;
  byName: Map<string, BlockEntry>;
  /** Valid edges between active blocks. */
  edges: EdgeEntry[];
  /**
   * Valid edges with a disabled block at one end (or one inside a disabled container): they never
   * run, but they follow the same rules and count in the cycle check, so enabling a block again
   * cannot make the workflow invalid.
   */
  dormantEdges: EdgeEntry[];
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
    if (sameId)
      issues.push({
        path: `blocks[${index}].id`,
        message: `Duplicate block id '${block.id}' (blocks ${blockLabel(sameId.block)} and ${blockLabel(block)})`,
      });
    else analysis.byId.set(block.id, entry);
    const sameName = analysis.byName.get(normalizedName);
    if (sameName)
      issues.push({
        path: `blocks[${index}].name`,
        message: `Block name ${blockLabel(block)} is already used by block ${blockLabel(sameName.block)} (names must differ ignoring case and spaces)`,
      });
    else analysis.byName.set(normalizedName, entry);
    if ((RESERVED_ROOTS as ReadonlyArray<string>).includes(normalizedName))
      issues.push({
        path: `blocks[${index}].name`,
        message: `Block name ${blockLabel(block)} is reserved for <${normalizedName}.…> references; choose another name`,
      });
    if (!entry.info)
      issues.push({
        path: `blocks[${index}].type`,
        message: `Block ${blockLabel(block)} has unknown block type '${block.type}'`,
      });
  });
}

/** Containers: parents must exist and be loop or parallel blocks; a disabled container disables what is inside it. */
function checkContainers(analysis: WorkflowAnalysis): void {
  for (const entry of analysis.blocks) {
    let parentId = entry.block.parentId;
    if (!parentId) continue;
    const seen = new Set<string>([entry.block.id]);
    while (parentId) {
      const parent = analysis.byId.get(parentId);
      if (!parent) {
        if (parentId === entry.block.parentId)
          analysis.issues.push({
            path: `blocks[${entry.index}].parentId`,
            message: `Block ${blockLabel(entry.block)} is inside '${parentId}', which does not exist`,
          });
        entry.active = false;
        break;
      }
      if (parentId === entry.block.parentId && parent.info && !parent.info.container)
        analysis.issues.push({
          path: `blocks[${entry.index}].parentId`,
          message: `Block ${blockLabel(entry.block)} is inside ${blockLabel(parent.block)}, which is a ${parent.block.type} block, not a loop or parallel container`,
        });
      if (seen.has(parentId)) {
        analysis.issues.push({
          path: `blocks[${entry.index}].parentId`,
          message: `Block ${blockLabel(entry.block)} is inside itself through its containers`,
        });
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
  if (starts.length === 0)
    analysis.issues.push({ path: "blocks", message: "The workflow needs one enabled start block" });
  for (const extra of starts.slice(1))
    analysis.issues.push({
      path: `blocks[${extra.index}]`,
      message: `Only one start block is allowed: found ${starts.map((entry) => blockLabel(entry.block)).join(", ")}`,
    });
  for (const start of starts)
    if (start.block.parentId)
      analysis.issues.push({
        path: `blocks[${start.index}].parentId`,
        message: `The start block ${blockLabel(start.block)} cannot be inside a container`,
      });
  analysis.entry = starts[0];
}

/** An edge's condition must parse, and only edges leaving a block that finished can have one. */
function checkCondition(
  analysis: WorkflowAnalysis,
  edge: WorkflowEdge,
  index: number,
  source: BlockEntry,
  target: BlockEntry,
  kind: EdgeEntry["kind"],
): EdgeCondition | null {
  const parsed = parseEdgeCondition(edge.condition);
  if (parsed.ok && (parsed.condition === null || kind === "flow")) return parsed.condition;
  const named = `The condition of the edge ${blockLabel(source.block)} -> ${blockLabel(target.block)}`;
  if (!parsed.ok) {
    analysis.issues.push({ path: `edges[${index}].condition`, message: `${named} does not parse: ${parsed.message}` });
    return null;
  }
  const why =
    kind === "body"
      ? "a body edge starts an iteration before its container has an output"
      : "an edge back to its container only ends the iteration";
  analysis.issues.push({ path: `edges[${index}].condition`, message: `${named} cannot be used: ${why}` });
  return null;
}

/** A block with a retry edge leaving it also offers the handle taken when its retries run out. */
function offeredHandles(source: BlockEntry, retrySources: ReadonlySet<string>): string[] {
  const offered = source.info!.sourceHandles(source.block);
  return retrySources.has(source.block.id) ? [...offered, RETRIES_EXHAUSTED_HANDLE] : offered;
}

function checkEdges(analysis: WorkflowAnalysis): void {
  const connected = new Set<string>();
  const retrySources = new Set<string>();
  for (const edge of analysis.document.edges) if (edge.maxRetries !== undefined) retrySources.add(edge.source);
  analysis.document.edges.forEach((edge, index) => {
    const source = analysis.byId.get(edge.source);
    const target = analysis.byId.get(edge.target);
    if (!source)
      analysis.issues.push({
        path: `edges[${index}].source`,
        message: `Edge '${edge.id}' starts at block '${edge.source}', which does not exist`,
      });
    if (!target)
      analysis.issues.push({
        path: `edges[${index}].target`,
        message: `Edge '${edge.id}' ends at block '${edge.target}', which does not exist`,
      });
    // A block of unknown type is already an issue of its own; its handles cannot be known.
    if (!source || !target || !source.info || !target.info) return;
    const handle = edgeHandle(edge);
    const verdict = judgeEdge(source, target, handle, offeredHandles(source, retrySources));
    if (verdict.problem) {
      const field = verdict.problem.field ? `.${verdict.problem.field}` : "";
      analysis.issues.push({ path: `edges[${index}]${field}`, message: verdict.problem.message });
      return;
    }
    const key = connectionKey(source.block.id, target.block.id, handle);
    if (connected.has(key)) {
      analysis.issues.push({ path: `edges[${index}]`, message: duplicateEdgeMessage(source, target, handle) });
      return;
    }
    connected.add(key);
    const condition = checkCondition(analysis, edge, index, source, target, verdict.kind);
    const entry: EdgeEntry = {
      edge,
      index,
      source,
      target,
      handle,
      kind: verdict.kind,
      condition,
      maxRetries: edge.maxRetries ?? null,
    };
    (source.active && target.active ? analysis.edges : analysis.dormantEdges).push(entry);
  });
}

export function analyzeWorkflow(document: WorkflowDocument, lookup: BlockTypeLookup): WorkflowAnalysis {
  const analysis: WorkflowAnalysis = {
    document,
    issues: [],
    blocks: [],
    byId: new Map(),
    byName: new Map(),
    edges: [],
    dormantEdges: [],
    entry: undefined,
  };
  checkIdentity(analysis, lookup);
  checkContainers(analysis);
  checkEntry(analysis);
  checkEdges(analysis);
  return analysis;
}
