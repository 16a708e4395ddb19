import type { RunEvent } from "@/contract";
import { routeOutput } from "../edge-routing";
import { TrellisError, errorInfo } from "@/core";
import { edgeLabel, type GraphNode } from "../graph";
import type { BlockOutcome, ExecutionPlace } from "./execution-place";
import type { BlockCheckpoint } from "./checkpoint-store";
import { reportFailure } from "./failure-report";
import { BlockSpan } from "./spans";

/**
 * Takes a reused result as the block's outcome, in the open: unlike a resumed run's restore, the
 * new run's stream has not seen this block, so it shows a span and `block.started` /
 * `block.completed` saying where the result came from and what it cost there. Nothing is added to
 * the run's usage (it spent nothing on the block), and the result becomes this run's own
 * checkpoint without usage, so that a resumed attempt restores it silently and counts nothing.
 * Its out edges are routed on the current draft, before it is reported: a condition that cannot be
 * evaluated over the reused output fails the block, as it would have failed the block had it run.
 */
export async function takeReused(
  place: ExecutionPlace,
  node: GraphNode,
  key: string,
  reused: { runId: string; result: Extract<BlockCheckpoint, { status: "completed" }> },
): Promise<BlockOutcome> {
  const { run } = place;
  const runId = run.settings.runId;
  const { output, usage, inner, variables } = reused.result;
  const span = new BlockSpan(run, node, place.parentSpanId, place.iteration);
  span.record.reusedFrom = reused.runId;
  const started: RunEvent = {
    type: "block.started",
    runId,
    blockId: node.id,
    blockName: node.name,
    blockType: node.block.type,
    spanId: span.id,
    startedAt: span.startedAt,
  };
  if (place.iteration.length > 0) started.iteration = [...place.iteration];
  run.emit(started);
  span.open();
  let routes: boolean[] | undefined;
  try {
    if (!node.info.terminal) routes = routeOutput(node.info, node.block, output, node.outEdges, edgeLabel);
  } catch (error) {
    const route = reportFailure(run, node, span, error);
    // A failure an error edge takes is this run's own result for the block, so a resumed attempt does not report it again.
    if ("unhandled" in route) return { status: "failed", error, route };
    return save(place, node, key, { status: "failed", error: errorInfo(error) }, { status: "failed", error, route });
  }
  const durationMs = span.close("succeeded", { output });
  const origin: Extract<RunEvent, { type: "block.completed" }>["reused"] = { runId: reused.runId };
  if (usage) {
    origin.tokens = usage.tokens;
    origin.cost = usage.cost;
  }
  run.emit({ type: "block.completed", runId, blockId: node.id, spanId: span.id, output, durationMs, reused: origin });
  // Stored with the events above, in one write, as a finished block's checkpoint is.
  const kept: BlockCheckpoint = { status: "completed", output };
  if (inner) kept.inner = inner;
  // A loop carries its assignments out: blocks after it read them, now and after a resume.
  if (variables) kept.variables = variables;
  const outcome = await save(place, node, key, kept, {
    status: "completed",
    output,
    ...(variables ? { variables } : {}),
    ...(routes ? { routes } : {}),
  });
  if (outcome.status === "completed" && inner) place.store.restore(inner);
  return outcome;
}

async function save(
  place: ExecutionPlace,
  node: GraphNode,
  key: string,
  kept: BlockCheckpoint,
  outcome: BlockOutcome,
): Promise<BlockOutcome> {
  const { run } = place;
  try {
    await run.settings.checkpoints?.save(key, kept);
  } catch (error) {
    const message = run.redactText(error instanceof Error ? error.message : String(error));
    return {
      status: "failed",
      error: new TrellisError(
        "internal_error",
        `The reused result of block '${node.name}' could not be stored: ${message}`,
      ),
    };
  }
  return outcome;
}
