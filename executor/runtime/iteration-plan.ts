import { BlockExecutionError } from "@/core";
import { evaluateCondition } from "../expression";
import type { GraphNode } from "../graph";
import { resolveExpressionText } from "../references";
import { configProblem, resolveBlockConfig, type ExecutionPlace } from "./block-execution";
import type { IterationFrame } from "./frames";
import type { OutputStore } from "./output-store";
import { createReferenceSource } from "./reference-source";

/** How many times a loop or parallel container runs its body, and over which items. */
export interface IterationPlan {
  /** The config as resolved (the while condition stays as written; it is evaluated before each iteration). */
  config: Record<string, unknown>;
  /** Fixed iterations, or null for a while loop. */
  items: unknown[] | null;
  /** A while loop's condition. */
  condition: string | null;
  maxIterations: number;
  /** At most this many parallel branches at once. */
  concurrency: number;
}

const DEFAULT_MAX_ITERATIONS = 1_000;
const DEFAULT_PARALLEL_CONCURRENCY = 8;

function iterationCountOf(node: GraphNode, value: unknown): number {
  const count = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0)
    throw new BlockExecutionError(
      `Block '${node.name}': count must be a whole number of 0 or more, got ${JSON.stringify(value) ?? "nothing"}`,
      {
        code: "invalid_config",
      },
    );
  return count;
}

/** Arrays as they are; objects as `{key, value}` entries; text holding a JSON array is parsed. */
function itemsOf(node: GraphNode, value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // Reported below.
    }
  } else if (value !== null && typeof value === "object") {
    return Object.entries(value).map(([key, item]) => ({ key, value: item }));
  }
  const shown = JSON.stringify(value)?.slice(0, 80) ?? "nothing";
  throw new BlockExecutionError(
    `Block '${node.name}': collection must be an array (or an object, or JSON text of an array), got ${shown}`,
    {
      code: "invalid_config",
    },
  );
}

export function planIterations(place: ExecutionPlace, node: GraphNode): IterationPlan {
  const raw = node.block.config;
  const isLoop = node.info.container === "loop";
  const condition = isLoop && raw.kind === "while" ? raw.condition : undefined;
  const config = resolveBlockConfig(place, node, condition === undefined ? raw : { ...raw, condition: undefined });
  // Save time checked the config as written; a reference may have brought in a value of the wrong type.
  const parsed = node.hasReferences ? node.info.parseConfig(config) : null;
  if (parsed && !parsed.ok) throw configProblem(place.run, node, parsed.issues);
  const maxIterations = typeof config.maxIterations === "number" ? config.maxIterations : DEFAULT_MAX_ITERATIONS;
  const concurrency = typeof config.concurrency === "number" ? config.concurrency : DEFAULT_PARALLEL_CONCURRENCY;
  const shown = condition === undefined ? config : { ...config, condition };
  if (isLoop && raw.kind === "while") {
    if (typeof condition !== "string" || condition.trim() === "")
      throw new BlockExecutionError(`Block '${node.name}': a while loop needs a condition`, { code: "invalid_config" });
    return { config: shown, items: null, condition, maxIterations, concurrency };
  }
  const usesCollection = raw.kind === "forEach" || raw.kind === "collection";
  const items = usesCollection
    ? itemsOf(node, config.collection)
    : Array.from({ length: iterationCountOf(node, config.count ?? 0) }, () => null);
  if (isLoop && items.length > maxIterations)
    throw new BlockExecutionError(
      `Block '${node.name}': ${items.length} iterations exceed its limit of ${maxIterations} (maxIterations)`,
      {
        code: "iteration_limit",
      },
    );
  return { config: shown, items, condition: null, maxIterations, concurrency };
}

/**
 * Evaluates a while condition before iteration `frame.index`; body blocks read the previous
 * iteration's outputs, and `<variable.…>` the values the iteration will start from.
 */
export function whileHolds(
  place: ExecutionPlace,
  node: GraphNode,
  condition: string,
  frame: IterationFrame,
  store: OutputStore,
  variables: Readonly<Record<string, unknown>>,
): boolean {
  const source = createReferenceSource(place.run, store, frame, node, variables);
  const text = resolveExpressionText(condition, source, {
    onSecret: (name, value) => place.run.redactor.add(name, value),
  });
  return evaluateCondition(text, { index: frame.index });
}
