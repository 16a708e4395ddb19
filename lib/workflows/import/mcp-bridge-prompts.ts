import type { BridgeAgent } from "./mcp-bridge-agents";

/** An MCP-bridge agent's Agent block config: its description as the system prompt, the workflow context as the user prompt, its MCP tools. */

/** `.result` is the agent's text; `.result.<field>` one of its `returns` (a response-format field). */
export function agentPath(agent: BridgeAgent, rest: string): string {
  const field = /^\.result\.([A-Za-z_][A-Za-z0-9_]*)(.*)$/.exec(rest);
  if (field && agent.returns.includes(field[1]!)) return `${field[1]}${field[2]}`;
  const returned = /^\.([A-Za-z_][A-Za-z0-9_]*)(.*)$/.exec(rest);
  if (returned && agent.returns.includes(returned[1]!)) return `${returned[1]}${returned[2]}`;
  return "content";
}

export function toolsText(agent: BridgeAgent, server: string | undefined): string {
  if (!server) return "no tools";
  if (agent.tools === null) return `every tool of the MCP server '${server}'`;
  if (agent.tools.length === 0) return "no tools";
  return `the MCP server '${server}' tools ${agent.tools.join(", ")}`;
}

/**
 * The workflow variable holding the file's `root_intent`: every agent's prompt reads it by
 * reference, so a long intent is stored once, not once per agent.
 */
export const ROOT_INTENT_VARIABLE = "root_intent";
const ROOT_INTENT = `<variable.${ROOT_INTENT_VARIABLE}>`;

export interface PromptParts {
  model: string;
  server: string | undefined;
  rootIntent: string;
  routed: string[];
  tags: string[];
  askInstructions: string[];
  upstream: string[];
  answers: string[];
  contextInputs: () => string[];
  rewrite: (text: string) => string;
}

export function agentConfig(agent: BridgeAgent, parts: PromptParts): Record<string, unknown> {
  const system = [parts.rewrite(agent.description)];
  if (typeof agent.passThrough === "string" && agent.passThrough.trim()) system.push(parts.rewrite(agent.passThrough));
  if (parts.tags.length > 0)
    system.push(
      `When one of these applies, end your answer with it: ${parts.tags.map((tag) => `<reroute>${tag}</reroute>`).join(", ")}.`,
    );
  for (const instruction of parts.askInstructions) system.push(`Finish with the question for the user: ${instruction}`);
  const config: Record<string, unknown> = {
    model: parts.model,
    systemPrompt: system.filter(Boolean).join("\n\n"),
    userPrompt: userPrompt(agent, parts),
  };
  if (parts.server && (agent.tools === null || agent.tools.length > 0)) {
    config.tools = [
      {
        type: "mcp",
        params: { server: parts.server, ...(agent.tools ? { tools: agent.tools } : {}) },
        ...(parts.routed.length > 0 ? { routeOnOutcome: parts.routed } : {}),
      },
    ];
  }
  if (agent.returns.length > 0) {
    config.responseFormat = {
      type: "object",
      properties: Object.fromEntries(agent.returns.map((field) => [field, { description: `The ${field} found` }])),
      required: agent.returns,
    };
  }
  return config;
}

function userPrompt(agent: BridgeAgent, parts: PromptParts): string {
  const lines: string[] = [];
  if (agent.context === false) lines.push(parts.rootIntent ? ROOT_INTENT : agent.description || "Do your task.");
  else if (agent.context === "user_prompt") lines.push("<start.message>");
  else if (Array.isArray(agent.context)) {
    lines.push("Request: <start.message>");
    for (const path of agent.context) lines.push(`${path}: ${parts.rewrite(`\${${path}}`)}`);
  } else {
    if (parts.rootIntent) lines.push(`Goal: ${ROOT_INTENT}`);
    lines.push("Request: <start.message>");
    for (const name of parts.contextInputs()) if (name !== "message") lines.push(`${name}: <start.${name}>`);
    for (const name of parts.upstream) lines.push(`Result of ${name}: <${name}.content ?? "(did not run)">`);
  }
  for (const ask of parts.answers) lines.push(`The user's answer: <${ask}.choice ?? ""> <${ask}.text ?? "">`);
  return lines.join("\n");
}
