import "server-only";
import { tool, type ToolSet } from "ai";
import { z } from "zod";
import { getBlockDefinition, BLOCK_TYPES } from "@/blocks";
import { edgeHandle, type WorkflowBlock, type WorkflowDocument } from "@/contract";
import {
  DraftEditor,
  EditRefused,
  fieldPath,
  findBlock,
  freshBlockId,
  freshEdgeId,
  nextPosition,
  setAt,
  type EditOutcome,
} from "./draft-editor";

/**
 * The copilot's edit tools, built with the AI SDK's tool(): each makes one edit through the draft
 * editor, which keeps it only when the document passes the save checks. A refused edit throws, so
 * the model gets it as the call's error result, with the reason, and may try again.
 */

const blockRef = z.string().min(1).describe("The block's id or its name.");

async function outcome(result: Promise<EditOutcome>): Promise<{ done: string }> {
  const settled = await result;
  if (!settled.ok) throw new Error(`Refused: ${settled.reason}`);
  return { done: settled.summary };
}

/** Adds the edge, refusing a handle the source does not have and an edge already there. */
function connectBlocks(
  document: WorkflowDocument,
  source: WorkflowBlock,
  target: WorkflowBlock,
  sourceHandle: string,
): void {
  const known =
    getBlockDefinition(source.type)
      ?.sourceHandles(source)
      .map((each) => each.id) ?? [];
  if (!known.includes(sourceHandle))
    throw new EditRefused(
      `"${source.name}" has no handle "${sourceHandle}"; its handles are: ${known.join(", ") || "none"}.`,
    );
  if (
    document.edges.some(
      (edge) => edge.source === source.id && edge.target === target.id && edgeHandle(edge) === sourceHandle,
    )
  )
    throw new EditRefused(`"${source.name}" is already connected to "${target.name}" by ${sourceHandle}.`);
  document.edges.push({
    id: freshEdgeId(document, source.id, target.id, sourceHandle),
    source: source.id,
    target: target.id,
    sourceHandle,
  });
}

export function copilotTools(editor: DraftEditor): ToolSet {
  return {
    add_block: tool({
      description:
        "Adds a block, connected from the blocks in `after`. Give its whole config at once (the config schema of its type, in the catalog): an edit that leaves a config unfinished, or a reference to a block that does not run before it, is refused.",
      inputSchema: z.object({
        type: z.enum(BLOCK_TYPES as [string, ...string[]]),
        name: z.string().min(1).max(200).describe("Unique in the workflow; references use it: <Name.field>."),
        id: z.string().optional().describe("Optional id (made from the name when left out)."),
        config: z.record(z.string(), z.unknown()).optional(),
        parent: z.string().optional().describe("A loop or parallel container to put the block in."),
        position: z.object({ x: z.number(), y: z.number() }).optional(),
        after: z
          .array(z.string())
          .optional()
          .describe(
            "Blocks whose output leads into the new block: `Name`, or `Name:handle` for another handle than out.",
          ),
      }),
      execute: ({ type, name, id, config, parent, position, after }) =>
        outcome(
          editor.apply("add_block", (document) => {
            const parentId = parent === undefined ? null : findBlock(document, parent).id;
            const blockId = id ?? freshBlockId(document, name);
            document.blocks.push({
              id: blockId,
              type,
              name,
              position: position ?? nextPosition(document),
              parentId,
              enabled: true,
              config: config ?? {},
            });
            const sources = (after ?? []).map((entry) => {
              const split = entry.lastIndexOf(":");
              const named = split > 0 ? entry.slice(0, split) : entry;
              return { block: findBlock(document, named), handle: split > 0 ? entry.slice(split + 1) : "out" };
            });
            for (const { block: source, handle } of sources)
              connectBlocks(document, source, document.blocks.at(-1)!, handle);
            const from =
              sources.length > 0 ? `, after ${sources.map((source) => `"${source.block.name}"`).join(" and ")}` : "";
            return `Added ${type} block "${name}" (${blockId})${from}`;
          }),
        ),
    }),
    remove_block: tool({
      description: "Removes a block, its edges, and the blocks inside it when it is a container.",
      inputSchema: z.object({ block: blockRef }),
      execute: ({ block }) =>
        outcome(
          editor.apply("remove_block", (document) => {
            const target = findBlock(document, block);
            const gone = new Set([
              target.id,
              ...document.blocks.filter((each) => each.parentId === target.id).map((each) => each.id),
            ]);
            document.blocks = document.blocks.filter((each) => !gone.has(each.id));
            document.edges = document.edges.filter((edge) => !gone.has(edge.source) && !gone.has(edge.target));
            return `Removed block "${target.name}"`;
          }),
        ),
    }),
    connect: tool({
      description:
        "Connects a block's output handle (default `out`; `error`, a condition branch, a router route, a container's `body`...) to another block.",
      inputSchema: z.object({ from: blockRef, to: blockRef, handle: z.string().optional() }),
      execute: ({ from, to, handle }) =>
        outcome(
          editor.apply("connect", (document) => {
            const source = findBlock(document, from);
            const target = findBlock(document, to);
            const sourceHandle = handle ?? "out";
            connectBlocks(document, source, target, sourceHandle);
            return `Connected "${source.name}" (${sourceHandle}) to "${target.name}"`;
          }),
        ),
    }),
    disconnect: tool({
      description: "Removes the edge from one block to another (by handle when several).",
      inputSchema: z.object({ from: blockRef, to: blockRef, handle: z.string().optional() }),
      execute: ({ from, to, handle }) =>
        outcome(
          editor.apply("disconnect", (document) => {
            const source = findBlock(document, from);
            const target = findBlock(document, to);
            const before = document.edges.length;
            document.edges = document.edges.filter(
              (edge) =>
                !(
                  edge.source === source.id &&
                  edge.target === target.id &&
                  (handle === undefined || edgeHandle(edge) === handle)
                ),
            );
            if (document.edges.length === before)
              throw new EditRefused(`There is no edge from "${source.name}" to "${target.name}".`);
            return `Disconnected "${source.name}" from "${target.name}"`;
          }),
        ),
    }),
    set_field: tool({
      description:
        "Sets one config field of a block (`prompt`, `inputs[0].name`, `data.answer`), or `enabled`. A null value removes the field.",
      inputSchema: z.object({ block: blockRef, field: z.string().min(1), value: z.unknown() }),
      execute: ({ block, field, value }) =>
        outcome(
          editor.apply("set_field", (document) => {
            const target = findBlock(document, block);
            if (field === "enabled") {
              if (typeof value !== "boolean") throw new EditRefused("`enabled` is true or false.");
              target.enabled = value;
            } else setAt(target.config, fieldPath(field), value === null ? undefined : value);
            return `Set ${field} of "${target.name}"`;
          }),
        ),
    }),
    rename_block: tool({
      description:
        "Renames a block. References to its old name in other blocks are not rewritten: set those fields too.",
      inputSchema: z.object({ block: blockRef, name: z.string().min(1).max(200) }),
      execute: ({ block, name }) =>
        outcome(
          editor.apply("rename_block", (document) => {
            const target = findBlock(document, block);
            const previous = target.name;
            target.name = name;
            return `Renamed "${previous}" to "${name}"`;
          }),
        ),
    }),
    move_into: tool({
      description: "Moves a block into a loop or parallel container, or out of any (container null).",
      inputSchema: z.object({ block: blockRef, container: z.string().nullable() }),
      execute: ({ block, container }) =>
        outcome(
          editor.apply("move_into", (document) => {
            const target = findBlock(document, block);
            const parent = container === null ? null : findBlock(document, container);
            if (parent && !getBlockDefinition(parent.type)?.container)
              throw new EditRefused(`"${parent.name}" is a ${parent.type} block, not a loop or parallel container.`);
            target.parentId = parent?.id ?? null;
            return parent
              ? `Moved "${target.name}" into "${parent.name}"`
              : `Moved "${target.name}" out of its container`;
          }),
        ),
    }),
  };
}
