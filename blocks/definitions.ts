import type { z } from "zod";
import type { BlockDefinition } from "./types";
import { agentDefinition } from "./agent/definition";
import { apiDefinition } from "./api/definition";
import { askDefinition } from "./ask/definition";
import { conditionDefinition } from "./condition/definition";
import { evaluatorDefinition } from "./evaluator/definition";
import { functionDefinition } from "./function/definition";
import { knowledgeDefinition } from "./knowledge/definition";
import { loopDefinition } from "./loop/definition";
import { parallelDefinition } from "./parallel/definition";
import { responseDefinition } from "./response/definition";
import { routerDefinition } from "./router/definition";
import { startDefinition } from "./start/definition";
import { variablesDefinition } from "./variables/definition";
import { webDefinition } from "./web/definition";
import { workflowBlockDefinition } from "./workflow/definition";

/** Every block type, defined once. Client-safe. */
export const blockDefinitions = {
  start: startDefinition,
  agent: agentDefinition,
  router: routerDefinition,
  evaluator: evaluatorDefinition,
  condition: conditionDefinition,
  knowledge: knowledgeDefinition,
  function: functionDefinition,
  api: apiDefinition,
  web: webDefinition,
  workflow: workflowBlockDefinition,
  response: responseDefinition,
  loop: loopDefinition,
  parallel: parallelDefinition,
  variables: variablesDefinition,
  ask: askDefinition,
} satisfies Record<string, BlockDefinition>;

export type BlockType = keyof typeof blockDefinitions;

/** Each block type's config schema. (`Extract` lets the compiler see each is a zod type when T is generic.) */
type ConfigSchemas = { [T in BlockType]: Extract<(typeof blockDefinitions)[T]["configSchema"], z.ZodType> };

/** What a block type's handler gets as its config: its schema's output, defaults applied. */
export type BlockConfig<T extends BlockType> = z.output<ConfigSchemas[T]>;

/** The definitions, each typed by its own schema, for code generic over the block type. */
export const definitionsByType: { [T in BlockType]: BlockDefinition<ConfigSchemas[T]> } = blockDefinitions;

export const BLOCK_TYPES = Object.keys(blockDefinitions) as BlockType[];

export function isBlockType(type: string): type is BlockType {
  return Object.hasOwn(blockDefinitions, type);
}

export function getBlockDefinition(type: string): BlockDefinition | undefined {
  return isBlockType(type) ? definitionsByType[type] : undefined;
}
