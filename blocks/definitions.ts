import type { BlockDefinition } from "./types";
import { agentDefinition } from "./agent/definition";
import { apiDefinition } from "./api/definition";
import { conditionDefinition } from "./condition/definition";
import { evaluatorDefinition } from "./evaluator/definition";
import { functionDefinition } from "./function/definition";
import { knowledgeDefinition } from "./knowledge/definition";
import { loopDefinition } from "./loop/definition";
import { parallelDefinition } from "./parallel/definition";
import { responseDefinition } from "./response/definition";
import { routerDefinition } from "./router/definition";
import { startDefinition } from "./start/definition";
import { webDefinition } from "./web/definition";

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
  response: responseDefinition,
  loop: loopDefinition,
  parallel: parallelDefinition,
} satisfies Record<string, BlockDefinition>;

export type BlockType = keyof typeof blockDefinitions;

export const BLOCK_TYPES = Object.keys(blockDefinitions) as BlockType[];

export function isBlockType(type: string): type is BlockType {
  return Object.hasOwn(blockDefinitions, type);
}

export function getBlockDefinition(type: string): BlockDefinition | undefined {
  return isBlockType(type) ? (blockDefinitions[type] as BlockDefinition) : undefined;
}
