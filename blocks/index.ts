/**
 * The block registry's client-safe surface: every definition, its types, and the executor's view
 * of them. The handlers are server-only and live behind `@/blocks/handlers`.
 */
export * from "./definitions";
export * from "./types";
export { blockTypeInfo, lookupBlockType } from "./type-info";
export { describeConfigPath, isMissingValue } from "./config-issues";
export { startConfigSchema } from "./start/definition";
export { startInputJsonSchema, type StartInputJsonSchema } from "./start/input-schema";
export { freshVariableName, VARIABLE_NAME } from "./variables/names";
export { outcomeNamesOf } from "./agent/tool-outcomes";
export { configuredToolNames, TOOL_CHOICE_MODES, type StepRule } from "./agent/step-rules";
export { checkedRunInput } from "./start/run-input";
export { entryBlockOf, isEntryBlock, isTerminalBlock } from "./entry-block";
export type { ModelUse } from "./model-use";
