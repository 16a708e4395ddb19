import { normalizeBlockName } from "@/contract";
import { ReferenceError } from "@/core";
import type { GraphNode } from "../graph";
import type { BlockReference, ReferenceSource } from "../references";
import { frameValue, nearestFrame, type IterationFrame } from "./frames";
import type { OutputStore } from "./output-store";
import type { RunContext } from "./run-context";
import { skippedReferenceHint } from "./skipped-reference-hint";

/**
 * What references read while one block runs.
 *
 * Rules: a block is found by name (ignoring case and spaces) or id; `start` is the start block
 * whatever it is called. Inside a loop iteration or parallel branch, a block of the same container
 * reads that iteration's output. Outside a container, a block inside it reads its output from the
 * container's last iteration (the highest index for parallel). A reference to a block that was
 * skipped (its path was not taken) is an error saying so, and naming the blocks that ran instead
 * as `??` alternatives: it never silently becomes null or text.
 * So is a reference to a block that has not run before this one. `<variable.…>` reads `variables`,
 * the values the reader sees (VariableScope).
 */
export function createReferenceSource(
  run: RunContext,
  store: OutputStore,
  frame: IterationFrame | null,
  reader: GraphNode | null,
  variables: Readonly<Record<string, unknown>>,
): ReferenceSource {
  const graph = run.graph;
  return {
    env: run.settings.env,
    root(reference: BlockReference): unknown {
      const key = normalizeBlockName(reference.root);
      if (key === "variable") return variables;
      if (key === "loop" || key === "parallel") {
        const found = nearestFrame(frame, key);
        if (!found)
          throw new ReferenceError(`${reference.text}: <${key}.…> is only available inside a ${key} container`);
        return frameValue(found);
      }
      const node =
        graph.nodesByName.get(key) ??
        graph.nodesById.get(reference.root) ??
        (key === "start" ? graph.entry : undefined);
      if (!node) {
        const block = graph.allBlocksByName.get(key) ?? graph.allBlocksById.get(reference.root);
        if (!block)
          throw new ReferenceError(`${reference.text}: there is no block named or with id '${reference.root}'`);
        const why = block.enabled ? "is not connected to the start block, so it never runs" : "is disabled";
        throw new ReferenceError(`${reference.text}: block '${block.name}' ${why}`);
      }
      const result = store.get(node.id);
      if (!result) {
        const who = reader ? ` before '${reader.name}'` : "";
        throw new ReferenceError(
          `${reference.text}: block '${node.name}' has not run${who}; connect it upstream so it runs first`,
        );
      }
      if (result.kind === "skipped") {
        // Inside a `??` reference the next alternative is the fix already; a plain one gets told how.
        const hint =
          reference.fallbacks || reference.fallbackDefault ? "" : skippedReferenceHint(store, node, reader, reference);
        throw new ReferenceError(
          `${reference.text}: block '${node.name}' was skipped (${result.reason}), so it has no output${hint}`,
        );
      }
      return result.output;
    },
  };
}
