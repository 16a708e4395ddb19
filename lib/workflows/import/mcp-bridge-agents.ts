import { ConversionError, objectAt, optionalString, requiredString } from "./document-builder";
import { rerouteRules, type RerouteRule } from "./mcp-bridge-rules";

/** One agent of an MCP-bridge workflow (seed 004's field reference), read and checked. */
export interface BridgeAgent {
  index: number;
  path: string;
  name: string;
  description: string;
  dependsOn: string[];
  when?: string;
  /** null: every tool of the server; []: none; else these names. */
  tools: string[] | null;
  /** Tool entries' `args`, `settings` and `streaming`, which have no Trellis equivalent. */
  toolSettings: Array<{ what: string }>;
  returns: string[];
  context: true | false | "user_prompt" | string[];
  passThrough: boolean | string;
  onToolError?: string;
  stopPoint: boolean;
  rules: RerouteRule[];
}

function stringList(value: unknown, path: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string"))
    throw new ConversionError(path, `${path} must be a list of names`);
  return value as string[];
}

function readTools(value: unknown, path: string): { tools: string[] | null; toolSettings: Array<{ what: string }> } {
  if (value === undefined || value === null) return { tools: null, toolSettings: [] };
  if (!Array.isArray(value))
    throw new ConversionError(
      path,
      `${path} must be null, a list of tool names or a list of { tool: settings } objects`,
    );
  const tools: string[] = [];
  const toolSettings: Array<{ what: string }> = [];
  value.forEach((entry, index) => {
    const where = `${path}[${index}]`;
    if (typeof entry === "string") {
      tools.push(entry);
      return;
    }
    const record = objectAt(entry, where);
    const names = Object.keys(record);
    if (names.length !== 1)
      throw new ConversionError(where, `${where} must name one tool: { "tool_name": { args, settings } }`);
    tools.push(names[0]!);
    const settings = record[names[0]!];
    if (settings && typeof settings === "object") {
      for (const key of Object.keys(settings)) toolSettings.push({ what: `${where}.${names[0]}.${key}` });
    }
  });
  return { tools, toolSettings };
}

function readContext(value: unknown, path: string): BridgeAgent["context"] {
  if (value === undefined || value === null || value === true) return true;
  if (value === false || value === "user_prompt") return value;
  if (Array.isArray(value)) return stringList(value, path);
  throw new ConversionError(path, `${path} must be true, false, "user_prompt" or a list of dot paths`);
}

export function readAgents(file: Record<string, unknown>): BridgeAgent[] {
  if (!Array.isArray(file.agents) || file.agents.length === 0)
    throw new ConversionError("agents", "agents must list at least one agent");
  const agents = file.agents.map((raw, index): BridgeAgent => {
    const path = `agents[${index}]`;
    const agent = objectAt(raw, path);
    const passThrough = agent.pass_through ?? false;
    if (typeof passThrough !== "boolean" && typeof passThrough !== "string")
      throw new ConversionError(`${path}.pass_through`, `${path}.pass_through must be true, false or text`);
    return {
      index,
      path,
      name: requiredString(agent.agent, `${path}.agent`).trim(),
      description: optionalString(agent.description, `${path}.description`) ?? "",
      dependsOn: stringList(agent.depends_on, `${path}.depends_on`),
      when: optionalString(agent.when, `${path}.when`)?.trim() || undefined,
      ...readTools(agent.tools, `${path}.tools`),
      returns: stringList(agent.returns, `${path}.returns`),
      context: readContext(agent.context, `${path}.context`),
      passThrough,
      onToolError: optionalString(agent.on_tool_error, `${path}.on_tool_error`)?.trim() || undefined,
      stopPoint: agent.stop_point === true,
      rules: rerouteRules(agent.reroute, `${path}.reroute`),
    };
  });
  const names = new Set<string>();
  for (const agent of agents) {
    if (names.has(agent.name))
      throw new ConversionError(`${agent.path}.agent`, `${agent.path}.agent: '${agent.name}' names two agents`);
    names.add(agent.name);
  }
  for (const agent of agents) {
    agent.dependsOn.forEach((dependency, index) => {
      if (!names.has(dependency))
        throw new ConversionError(
          `${agent.path}.depends_on[${index}]`,
          `${agent.path}.depends_on[${index}]: no agent is called '${dependency}'`,
        );
    });
    if (agent.onToolError && !names.has(agent.onToolError)) {
      throw new ConversionError(
        `${agent.path}.on_tool_error`,
        `${agent.path}.on_tool_error: no agent is called '${agent.onToolError}'`,
      );
    }
    for (const rule of agent.rules) {
      if (rule.target && !names.has(rule.target))
        throw new ConversionError(rule.path, `${rule.path}: no agent is called '${rule.target}'`);
    }
  }
  return agents;
}
