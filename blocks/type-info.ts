import type { BlockTypeInfo, BlockTypeLookup } from "@/executor/block-type";
import type { IssueDetail } from "@/executor/errors";
import { getBlockDefinition } from "./definitions";
import type { BlockDefinition } from "./types";

function zodIssuePath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, part) => (typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), "");
}

function toTypeInfo(definition: BlockDefinition): BlockTypeInfo {
  return {
    type: definition.type,
    container: definition.container,
    routing: definition.routing ?? "all",
    terminal: definition.terminal,
    entry: definition.entry,
    sourceHandles: (block) => definition.sourceHandles(block).map((handle) => handle.id),
    validateConfig: (config): IssueDetail[] => {
      const parsed = definition.configSchema.safeParse(config ?? {});
      if (parsed.success) return [];
      return parsed.error.issues.map((issue) => ({ path: zodIssuePath(issue.path), message: issue.message }));
    },
  };
}

const cache = new Map<string, BlockTypeInfo>();

/** The executor's view of the block registry. */
export const lookupBlockType: BlockTypeLookup = (type) => {
  const cached = cache.get(type);
  if (cached) return cached;
  const definition = getBlockDefinition(type);
  if (!definition) return undefined;
  const info = toTypeInfo(definition);
  cache.set(type, info);
  return info;
};
