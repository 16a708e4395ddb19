import type { z } from "zod";
import type { BlockTypeInfo, BlockTypeLookup, ConfigParse } from "@/executor";
import { describeConfigPath, parseBlockConfig } from "./config-issues";
import { definitionsByType, isBlockType, type BlockConfig, type BlockType } from "./definitions";
import type { BlockDefinition } from "./types";

/**
 * The executor's view of the block registry, from the definitions alone: client-safe (the canvas
 * validates with it), so no handler is imported here; the handlers are in blocks/handlers.ts.
 */

function toTypeInfo<Schema extends z.ZodType>(definition: BlockDefinition<Schema>): BlockTypeInfo<z.output<Schema>> {
  return {
    type: definition.type,
    container: definition.container,
    routing: definition.routing ?? "all",
    terminal: definition.terminal,
    ...(definition.takenHandles ? { takenHandles: definition.takenHandles } : {}),
    entry: definition.entry,
    ...(definition.assignsVariables ? { assignsVariables: definition.assignsVariables } : {}),
    expressionFields: definition.expressionFields,
    fieldResolvers: definition.fieldResolvers,
    sourceHandles: (block) => definition.sourceHandles(block).map((handle) => handle.id),
    parseConfig: (config): ConfigParse<z.output<Schema>> => parseBlockConfig(definition, config),
    describeConfigPath: (path) => describeConfigPath(definition, path),
  };
}

/** One block type's info, its `parseConfig` typed by the type's schema (for binding its handler). */
export function blockTypeInfo<T extends BlockType>(type: T): BlockTypeInfo<BlockConfig<T>> {
  return toTypeInfo(definitionsByType[type]);
}

const cache = new Map<string, BlockTypeInfo>();

/** The executor's lookup: the info of a known block type, undefined for any other. */
export const lookupBlockType: BlockTypeLookup = (type) => {
  let info = cache.get(type);
  if (!info && isBlockType(type)) cache.set(type, (info = blockTypeInfo(type)));
  return info;
};
