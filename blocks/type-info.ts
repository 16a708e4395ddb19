import type { BlockTypeInfo, BlockTypeLookup, FieldResolver } from "@/executor/block-type";
import type { IssueDetail } from "@/contract";
import type { BlockHandler } from "@/executor/handler";
import { conditionHandler } from "./condition/handler";
import { getBlockDefinition } from "./definitions";
import { substituteCodeReferences } from "./function/code-references";
import { responseHandler } from "./response/handler";
import { startHandler } from "./start/handler";
import type { BlockDefinition } from "./types";

/**
 * Config fields holding expressions: references there become expression literals and are checked
 * for syntax at save time. (Kept here rather than in the definitions, which describe the UI.)
 */
const EXPRESSION_FIELDS: Readonly<Record<string, ReadonlyArray<string>>> = {
  condition: ["branches[].expression"],
  loop: ["condition"],
};

/** Fields whose references their block type substitutes itself. */
const FIELD_RESOLVERS: Readonly<Record<string, Readonly<Record<string, FieldResolver>>>> = {
  function: { code: substituteCodeReferences },
};

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
    expressionFields: EXPRESSION_FIELDS[definition.type],
    fieldResolvers: FIELD_RESOLVERS[definition.type],
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

/**
 * Handlers of the control blocks (start, condition, response). Loop and parallel have none: the
 * engine runs containers itself. lib/ merges these with the AI and tool block handlers.
 */
export const controlHandlers = {
  start: startHandler,
  condition: conditionHandler,
  response: responseHandler,
} satisfies Record<string, BlockHandler>;
