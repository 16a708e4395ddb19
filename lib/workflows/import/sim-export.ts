import { getBlockDefinition } from "@/blocks";
import { ConversionError, DocumentBuilder, objectAt, type ConvertedFile } from "./document-builder";
import type { ImportOptions } from "./options";
import {
  mapAgent,
  mapApi,
  mapCondition,
  mapEvaluator,
  mapFunction,
  mapKnowledge,
  mapLoop,
  mapParallel,
  mapResponse,
  mapRouter,
  mapStart,
  mapVariables,
  type MappedSimBlock,
  type SimBlockContext,
  type SubBlockValues,
} from "./sim-blocks";

/**
 * A Sim workflow export: `{ version, exportedAt, state: { blocks, edges, loops, parallels,
 * metadata, variables } }`, or the bare state. Blocks map almost one to one (seed 003's Agent,
 * Router, Evaluator and Knowledge, and Condition, Function, API, Response, Loop, Parallel,
 * Variables); each block's `subBlocks` values become its config, and Sim's references
 * (`<agent1.content>`, `<variable.name>`, `{{ENV}}`) already have Trellis's syntax. Sim's
 * integration blocks (Slack, Gmail, ...) have no equivalent and are listed with their edges.
 */

const START_TYPES = new Set([
  "starter",
  "start_trigger",
  "api_trigger",
  "chat_trigger",
  "input_trigger",
  "manual_trigger",
]);
const MAPPERS: Record<string, (context: SimBlockContext) => MappedSimBlock> = {
  agent: mapAgent,
  router: mapRouter,
  router_v2: mapRouter,
  evaluator: mapEvaluator,
  knowledge: mapKnowledge,
  condition: mapCondition,
  function: mapFunction,
  api: mapApi,
  response: mapResponse,
  variables: mapVariables,
};

/** The workflow state inside a Sim export, or the file itself when it is the bare state. */
export function simState(file: Record<string, unknown>): Record<string, unknown> | undefined {
  const looksLikeState = (value: unknown): value is Record<string, unknown> => {
    if (!value || typeof value !== "object") return false;
    const blocks = (value as Record<string, unknown>).blocks;
    if (!blocks || typeof blocks !== "object" || Array.isArray(blocks)) return false;
    const first = Object.values(blocks)[0];
    return first === undefined
      ? Array.isArray((value as Record<string, unknown>).edges)
      : Boolean(first && typeof first === "object" && "subBlocks" in first);
  };
  if (looksLikeState(file.state)) return file.state;
  if (looksLikeState(file)) return file;
  return undefined;
}

/** How many of a Sim file's blocks become Trellis blocks (one start, loops, parallels and the mapped types), for the size check before converting. */
export function simBlocksToImport(file: Record<string, unknown>): number {
  const blocks = simState(file)?.blocks as Record<string, unknown>;
  let starts = 0;
  let count = 0;
  for (const raw of Object.values(blocks)) {
    const type = raw && typeof raw === "object" ? (raw as { type?: unknown }).type : undefined;
    if (typeof type !== "string") continue;
    if (START_TYPES.has(type)) starts = 1;
    else if (type === "loop" || type === "parallel" || Object.hasOwn(MAPPERS, type)) count += 1;
  }
  return count + starts;
}

export function convertSimExport(file: Record<string, unknown>, options: ImportOptions): ConvertedFile {
  const builder = new DocumentBuilder("sim-export");
  const state = simState(file)!;
  const statePath = file.state === state ? "state" : "";
  const at = (path: string) => (statePath ? `${statePath}.${path}` : path);
  const blocks = objectAt(state.blocks, at("blocks"));
  const loops = (state.loops && typeof state.loops === "object" ? state.loops : {}) as Record<
    string,
    Record<string, unknown>
  >;
  const parallels = (state.parallels && typeof state.parallels === "object" ? state.parallels : {}) as Record<
    string,
    Record<string, unknown>
  >;

  const idOf = new Map<string, string>();
  const branchIdsOf = new Map<string, Map<string, string>>();
  const dropped = new Set<string>();
  let startName: string | null = null;
  const pending: Array<{ sourceId: string; parent: unknown; built: ReturnType<DocumentBuilder["addBlock"]> }> = [];

  for (const [sourceId, raw] of Object.entries(blocks)) {
    const path = at(`blocks.${sourceId}`);
    const block = objectAt(raw, path);
    const type = typeof block.type === "string" ? block.type : "";
    const name = typeof block.name === "string" && block.name.trim() ? block.name : type || sourceId;
    const data = (block.data && typeof block.data === "object" ? block.data : {}) as Record<string, unknown>;
    const context: SimBlockContext = {
      builder,
      path,
      name,
      values: subBlockValues(block.subBlocks, path),
      data,
      model: options.model,
    };
    let mapped: MappedSimBlock;
    if (START_TYPES.has(type)) {
      if (startName) {
        builder.skip(`${path} (${type} '${name}')`, `a Trellis workflow has one start block; '${startName}' is it`);
        dropped.add(sourceId);
        continue;
      }
      mapped = mapStart(context);
      startName = name;
    } else if (type === "loop") mapped = mapLoop(context, loops[sourceId]);
    else if (type === "parallel") mapped = mapParallel(context, parallels[sourceId]);
    else if (Object.hasOwn(MAPPERS, type)) mapped = MAPPERS[type]!(context);
    else {
      builder.skip(
        `${path} (${type || "no type"} '${name}')`,
        `Sim's '${type}' block has no Trellis equivalent; its edges are left out (an API or Function block can often stand in)`,
      );
      dropped.add(sourceId);
      continue;
    }
    const position = block.position as { x?: unknown; y?: unknown } | undefined;
    const width = Number(data.width);
    const height = Number(data.height);
    const built = builder.addBlock({
      idHint: sourceId,
      type: mapped.type,
      name,
      config: mapped.config,
      enabled: block.enabled !== false,
      ...(position && Number.isFinite(position.x) && Number.isFinite(position.y)
        ? { position: { x: Number(position.x), y: Number(position.y) } }
        : {}),
      ...(getBlockDefinition(mapped.type)?.container
        ? width > 0 && height > 0
          ? { size: { width, height } }
          : {}
        : {}),
    });
    idOf.set(sourceId, built.id);
    if (mapped.branchIds) branchIdsOf.set(sourceId, mapped.branchIds);
    pending.push({ sourceId, parent: data.parentId, built });
    builder.map(`${type} '${name}' → ${mapped.type === "start" ? "Start" : mapped.type} block '${built.name}'`);
  }
  if (!startName)
    throw new ConversionError(at("blocks"), "The Sim workflow has no start block (starter or start_trigger)");
  for (const { sourceId, parent, built } of pending) {
    if (typeof parent !== "string" || !parent) continue;
    if (idOf.has(parent)) built.parentId = idOf.get(parent)!;
    else
      builder.skip(
        at(`blocks.${sourceId}.data.parentId`),
        `its container '${parent}' was not imported, so the block sits on the canvas itself`,
      );
  }

  mapEdges(builder, state.edges, at("edges"), { idOf, branchIdsOf, dropped });
  addReferencedStartInputs(builder, startName);
  const variables = workflowVariables(builder, state.variables, at("variables"));
  const metadata = (state.metadata && typeof state.metadata === "object" ? state.metadata : {}) as Record<
    string,
    unknown
  >;
  const name =
    [metadata.name, file.name].find((value): value is string => typeof value === "string" && value.trim() !== "") ??
    "Sim workflow";
  const description =
    [metadata.description, file.description].find((value): value is string => typeof value === "string") ?? "";
  return builder.build({ name, description, variables });
}

/** `subBlocks: { id: { id, type, value } }` as `{ id: value }`. */
function subBlockValues(subBlocks: unknown, path: string): SubBlockValues {
  if (subBlocks === undefined || subBlocks === null) return {};
  const record = objectAt(subBlocks, `${path}.subBlocks`);
  return Object.fromEntries(
    Object.entries(record).map(([key, subBlock]) => [
      key,
      subBlock && typeof subBlock === "object" && "value" in subBlock
        ? (subBlock as { value: unknown }).value
        : subBlock,
    ]),
  );
}

function mapEdges(
  builder: DocumentBuilder,
  raw: unknown,
  path: string,
  known: { idOf: Map<string, string>; branchIdsOf: Map<string, Map<string, string>>; dropped: Set<string> },
): void {
  if (raw === undefined) return;
  if (!Array.isArray(raw)) throw new ConversionError(path, `${path} must be a list`);
  raw.forEach((value, index) => {
    const where = `${path}[${index}]`;
    const edge = objectAt(value, where);
    const source = String(edge.source ?? "");
    const target = String(edge.target ?? "");
    if (known.dropped.has(source) || known.dropped.has(target)) {
      builder.skip(`${where} (${source} → ${target})`, "it connects a block that was not imported");
      return;
    }
    const from = known.idOf.get(source);
    const to = known.idOf.get(target);
    if (!from || !to)
      throw new ConversionError(
        where,
        `${where} connects '${!from ? source : target}', which is not a block of the workflow`,
      );
    const handle = typeof edge.sourceHandle === "string" ? edge.sourceHandle : "source";
    const mapped = trellisHandle(handle, known.branchIdsOf.get(source));
    if (!mapped) {
      builder.skip(`${where} (${handle})`, "this handle has no Trellis equivalent");
      return;
    }
    builder.connect(from, to, mapped);
  });
}

function trellisHandle(handle: string, branchIds: Map<string, string> | undefined): string | null {
  if (handle === "source" || handle === "" || handle.startsWith("router-")) return "out";
  if (handle === "error") return "error";
  if (handle === "loop-start-source" || handle === "parallel-start-source") return "body";
  if (handle === "loop-end-source" || handle === "parallel-end-source") return "out";
  if (handle.startsWith("condition-")) {
    const branch = branchIds?.get(handle.slice("condition-".length));
    return branch ? `branch:${branch}` : null;
  }
  return null;
}

/** Sim's starter hands the run's input to `<start.input>` and friends: each field a block reads becomes a start input. */
function addReferencedStartInputs(builder: DocumentBuilder, startName: string): void {
  const start = builder.blocks.find((block) => block.type === "start")!;
  const inputs = start.config.inputs as Array<{ name: string; type: string }>;
  const roots = new Set(["start", startName.replace(/\s+/g, "").toLowerCase()]);
  const text = JSON.stringify(builder.blocks.map((block) => block.config));
  const known = new Set(inputs.map((input) => input.name));
  for (const match of text.matchAll(/<([^<>.]+)\.([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const root = match[1]!.replace(/\s+/g, "").toLowerCase();
    const field = match[2]!;
    if (roots.has(root) && !known.has(field)) {
      known.add(field);
      inputs.push({ name: field, type: "string" });
      builder.map(`<${match[1]}.${field}> → Start input '${field}'`);
    }
  }
}

function workflowVariables(builder: DocumentBuilder, raw: unknown, path: string): Record<string, unknown> {
  if (!raw || typeof raw !== "object") return {};
  const variables: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const variable = objectAt(value, `${path}.${key}`);
    const name = typeof variable.name === "string" ? variable.name.trim() : "";
    if (!name || ["__proto__", "constructor", "prototype"].includes(name)) {
      builder.skip(`${path}.${key}`, "the variable has no usable name");
      continue;
    }
    variables[name] = variable.value ?? null;
  }
  if (Object.keys(variables).length > 0)
    builder.map(`variables (${Object.keys(variables).join(", ")}) → the workflow's variables`);
  return variables;
}
