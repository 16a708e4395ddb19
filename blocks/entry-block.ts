import { getBlockDefinition } from "./definitions";

/** A block as documents, editor nodes and run-time readers hold it: only its type and switch are read here. */
interface TypedBlock {
  type?: unknown;
  enabled?: unknown;
}

const definitionOf = (block: TypedBlock) =>
  typeof block.type === "string" ? getBlockDefinition(block.type) : undefined;

/** Whether the block is of a type a run starts from (the definition's `entry`: the start block). */
export function isEntryBlock(block: TypedBlock): boolean {
  return definitionOf(block)?.entry === true;
}

/** Whether the block's type ends the run with its output (the definition's `terminal`: the response block). */
export function isTerminalBlock(block: TypedBlock): boolean {
  return definitionOf(block)?.terminal === true;
}

/** The enabled block a run starts from (a saved document has exactly one; a draft may have none yet). */
export function entryBlockOf<Block extends TypedBlock>(blocks: Iterable<Block>): Block | undefined {
  for (const block of blocks) if (block.enabled !== false && isEntryBlock(block)) return block;
  return undefined;
}
