import { ConversionError, DocumentBuilder, objectAt, optionalString, type BuiltBlock, type ConvertedFile } from "./document-builder";
import { rewriteDollarReferences } from "./dollar-references";
import { readAgents, type BridgeAgent } from "./mcp-bridge-agents";
import { numericNames, toolTrigger, translateWhen } from "./mcp-bridge-rules";
import type { ImportOptions } from "./options";

/**
 * An MCP-bridge workflow definition (seed 004): `{ flow_id, root_intent, agents, loop }`. Each
 * agent becomes an Agent block whose tools are the named tools of one configured MCP server;
 * `depends_on` becomes edges (agents with no dependency start together), `when` a Condition block
 * in front of the agent, tool-outcome reroutes `tool:<name>:success|error` handles, tag reroutes
 * (`<reroute>PLAN_FOUND</reroute>`) edge conditions on the agent's text, `ask` an Ask block whose
 * choices lead to their agents, `stop_point` a Response block, and `loop: true` a while Loop
 * around every agent, capped at the bridge's 100 iterations. A reroute back to an agent that
 * already ran would be a cycle, which Trellis allows only through a Loop block: it is reported,
 * not drawn.
 */

const LOOP_CAP = 100;

export function convertMcpBridgeWorkflow(file: Record<string, unknown>, options: ImportOptions): ConvertedFile {
  const builder = new DocumentBuilder("mcp-bridge-workflow");
  const agents = readAgents(file);
  const flowId = optionalString(file.flow_id, "flow_id") ?? "MCP-bridge workflow";
  const rootIntent = optionalString(file.root_intent, "root_intent") ?? "";
  const model = options.model ?? "offline/echo";
  const byName = new Map(agents.map((agent) => [agent.name, agent]));
  const returnedBy = new Map<string, BridgeAgent>();
  for (const agent of agents) for (const field of agent.returns) if (!returnedBy.has(field)) returnedBy.set(field, agent);

  // The start block: the user's message and every initial-context field the agents read.
  const inputs: Array<{ name: string; type: "string" | "number"; description: string }> = [
    { name: "message", type: "string", description: "The user's request (the bridge's chat message)" },
  ];
  const addContextInput = (field: string, type: "string" | "number" = "string") => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) return false;
    if (!inputs.some((input) => input.name === field)) inputs.push({ name: field, type, description: "From the workflow's initial context" });
    return true;
  };
  const start = builder.addBlock({ idHint: "start", type: "start", name: "Start", config: { inputs } });
  builder.map(`the initial context → Start inputs (message${agents.length ? " and each field the agents read" : ""})`);

  const blocks = new Map<string, BuiltBlock>();
  const loop =
    file.loop === true
      ? builder.addBlock({
          idHint: "workflow_loop",
          type: "loop",
          name: "Workflow Loop",
          config: { kind: "while", condition: "<loop.index> == 0", maxIterations: LOOP_CAP },
        })
      : null;
  for (const agent of agents) {
    blocks.set(agent.name, builder.addBlock({ idHint: agent.name, type: "agent", name: agent.name, parentId: loop?.id, config: { model } }));
  }

  // References: ${agent.result...}, ${initial_context.field}, ${tool_name.output}.
  const toolOwner = (tool: string) => agents.find((agent) => agent.tools?.includes(tool));
  const resolve = (root: string, rest: string): string | null => {
    if (root === "initial_context") {
      const field = /^\.([A-Za-z_][A-Za-z0-9_]*)/.exec(rest)?.[1];
      return field && addContextInput(field) ? `<start${rest}>` : null;
    }
    const agent = byName.get(root);
    if (agent) return `<${blocks.get(agent.name)!.name}.${agentPath(agent, rest)}>`;
    const owner = toolOwner(root);
    if (owner && rest.startsWith(".output")) return `<${blocks.get(owner.name)!.name}.toolCalls.list>`;
    return null;
  };
  const rewrite = (text: string, where: string) =>
    rewriteDollarReferences(text, resolve, (written) =>
      builder.skip(`${written} in ${where}`, "it names no agent, tool or initial-context field; the text is kept as written"),
    );
  const whenName = (path: string) => {
    const [root, ...rest] = path.split(".");
    const tail = rest.length ? `.${rest.join(".")}` : "";
    if (root === "initial_context" && rest.length) return resolve(root, tail) ?? path;
    if (byName.has(root!)) return `<${blocks.get(root!)!.name}.${agentPath(byName.get(root!)!, tail)} ?? null>`;
    const producer = returnedBy.get(root!);
    if (producer) return `<${blocks.get(producer.name)!.name}.${root}${tail} ?? null>`;
    return addContextInput(root!) ? `<start.${path}>` : path;
  };

  // `when` → a Condition block in front of the agent.
  const entries = new Map<string, string>();
  const gates: string[] = [];
  for (const agent of agents) {
    const block = blocks.get(agent.name)!;
    entries.set(agent.name, block.id);
    if (!agent.when) continue;
    for (const name of numericNames(agent.when)) if (!name.includes(".") && !returnedBy.has(name) && !byName.has(name)) addContextInput(name, "number");
    const translated = translateWhen(agent.when, whenName);
    if ("problem" in translated) {
      builder.skip(`${agent.path}.when (${agent.when})`, `${translated.problem}; the agent runs unconditionally`);
      continue;
    }
    const gate = builder.addBlock({
      idHint: `when_${agent.name}`,
      type: "condition",
      name: `When ${agent.name}`,
      parentId: loop?.id,
      config: {
        branches: [
          { id: "run", label: agent.when, expression: translated.expression },
          { id: "skip", label: "otherwise" },
        ],
      },
    });
    builder.connect(gate.id, block.id, "branch:run");
    entries.set(agent.name, gate.id);
    gates.push(translated.expression);
    builder.map(`${agent.path}.when (${agent.when}) → Condition block '${gate.name}' (${translated.expression})`);
  }

  const graph = new EdgeGraph();
  const link = (source: string, target: string, handle = "out", condition?: string) => {
    builder.connect(source, target, handle, condition);
    graph.add(source, target);
  };
  for (const edge of builder.edges) graph.add(edge.source, edge.target);

  // depends_on, and the agents that start the flow.
  const routedTo = new Set<string>();
  for (const agent of agents) {
    for (const rule of agent.rules) {
      if (rule.target) routedTo.add(rule.target);
      for (const response of askResponses(rule.ask, rule.path)) if (response.to) routedTo.add(response.to);
    }
    if (agent.onToolError) routedTo.add(agent.onToolError);
  }
  const firstSource = loop ? loop.id : start.id;
  if (loop) link(start.id, loop.id);
  for (const agent of agents) {
    const entry = entries.get(agent.name)!;
    if (agent.dependsOn.length === 0) {
      // The first agent always starts the flow; another with no dependency that a rule routes to waits for that rule.
      if (routedTo.has(agent.name) && agent.index > 0) builder.map(`'${agent.name}' has no depends_on and is a reroute target: it runs only when rerouted to`);
      else link(firstSource, entry, loop ? "body" : "out");
      continue;
    }
    for (const dependency of agent.dependsOn) {
      const source = blocks.get(dependency)!.id;
      if (graph.reaches(entry, source))
        throw new ConversionError(`${agent.path}.depends_on`, `${agent.path}.depends_on: '${agent.name}' and '${dependency}' depend on each other`);
      link(source, entry);
    }
  }
  builder.map("depends_on → edges (agents whose dependencies are met run in parallel, as in the bridge)");
  if (loop) mapLoop(builder, loop, gates);

  // Reroutes, on_tool_error and stop points.
  const tagTriggers = new Map<string, string[]>();
  const askInstructions = new Map<string, string[]>();
  const routedTools = new Map<string, Set<string>>();
  const answeredBy = new Map<string, string[]>();
  for (const agent of agents) {
    const source = blocks.get(agent.name)!;
    const leave = (trigger: string, where: string): { handle: string; condition?: string } | null => {
      const tool = toolTrigger(trigger);
      if (tool && !options.mcpServer) {
        builder.skip(`${where} (${trigger})`, "the agent has no MCP tools (no MCP server was chosen), so no tool outcome can route");
        return null;
      }
      if (tool) {
        routedTools.set(agent.name, (routedTools.get(agent.name) ?? new Set()).add(tool.tool));
        return { handle: `tool:${tool.tool}:${tool.outcome}` };
      }
      tagTriggers.set(agent.name, [...new Set([...(tagTriggers.get(agent.name) ?? []), trigger])]);
      builder.map(`${where} trigger '${trigger}' → an edge taken when the agent's answer holds <reroute>${trigger}</reroute>`);
      return { handle: "out", condition: `contains(output.content, ${JSON.stringify(`<reroute>${trigger}</reroute>`)})` };
    };
    const route = (target: string, trigger: string, where: string) => {
      const entry = entries.get(target)!;
      if (entry === source.id || graph.reaches(entry, source.id)) {
        builder.skip(
          `${where} (${trigger} → ${target})`,
          `'${target}' comes before '${agent.name}', so this reroute would make a cycle; Trellis repeats blocks only inside a Loop block (see examples/tool-reroute.json for a retry capped by a while loop)`,
        );
        return;
      }
      const leaving = leave(trigger, where);
      if (!leaving) return;
      const { handle, condition } = leaving;
      // A reroute to an agent that also depends on this one replaces the plain dependency edge: only the rule's outcome leads there.
      if (handle !== "out" || condition) removePlainEdge(builder, source.id, entry);
      link(source.id, entry, handle, condition);
      builder.map(`${where} (${trigger} → ${target}) → edge by ${handle}${condition ? ` when ${condition}` : ""}`);
    };
    for (const rule of agent.rules) {
      for (const trigger of rule.on) {
        if (rule.target) route(rule.target, trigger, rule.path);
        if (rule.ask) {
          const ask = askBlock(builder, agent, rule, loop?.id ?? null, blocks, entries, graph, link, answeredBy);
          if (!ask) continue;
          const leaving = leave(trigger, rule.path);
          if (leaving) link(source.id, ask.id, leaving.handle, leaving.condition);
          const instruction = optionalString(rule.ask.question, `${rule.path}.ask.question`);
          if (instruction) askInstructions.set(agent.name, [...(askInstructions.get(agent.name) ?? []), instruction]);
        }
      }
    }
    if (agent.onToolError) {
      if (agent.tools === null) {
        builder.skip(
          `${agent.path}.on_tool_error`,
          "the agent may use every tool of the server, so which tools to watch is only known at run time; list the tools to route on their errors",
        );
      } else {
        for (const tool of agent.tools) route(agent.onToolError, `tool:${tool}:error`, `${agent.path}.on_tool_error`);
      }
    }
    if (agent.stopPoint) {
      const stop = builder.addBlock({
        idHint: `stop_${agent.name}`,
        type: "response",
        name: `Stop after ${agent.name}`,
        parentId: loop?.id,
        config: { data: `<${source.name}.content>` },
      });
      link(source.id, stop.id);
      builder.map(`${agent.path}.stop_point → Response block '${stop.name}': the run ends with this agent's answer`);
    }
  }

  for (const agent of agents) {
    const entry = entries.get(agent.name)!;
    if (agent.index > 0 && agent.dependsOn.length === 0 && !builder.edges.some((edge) => edge.target === entry)) {
      link(firstSource, entry, loop ? "body" : "out");
      builder.map(`'${agent.name}': every reroute to it was left out, so it starts with the flow as an agent with no depends_on does`);
    }
  }
  for (const agent of agents) {
    const block = blocks.get(agent.name)!;
    block.config = agentConfig(agent, {
      model,
      server: options.mcpServer,
      rootIntent,
      routed: [...(routedTools.get(agent.name) ?? [])],
      tags: tagTriggers.get(agent.name) ?? [],
      askInstructions: askInstructions.get(agent.name) ?? [],
      upstream: agents
        .filter((other) => other !== agent && graph.reaches(blocks.get(other.name)!.id, entries.get(agent.name)!))
        .map((other) => blocks.get(other.name)!.name),
      answers: answeredBy.get(agent.name) ?? [],
      contextInputs: () => inputs.map((input) => input.name),
      rewrite: (text) => rewrite(text, agent.path),
    });
    builder.map(`${agent.path} (${agent.name}) → Agent block '${block.name}' with ${toolsText(agent, options.mcpServer)}`);
    if (!options.mcpServer && agent.tools?.length !== 0) {
      builder.skip(
        `${agent.path}.tools`,
        "no MCP server was chosen and the workspace has none to choose from (configure TRELLIS_MCP_SERVERS, then import again naming mcpServer), so the agent has no tools",
      );
    }
    for (const setting of agent.toolSettings)
      builder.skip(setting.what, "per-tool arguments and settings are not part of an MCP tool entry in Trellis; the model fills in the arguments");
    if (agent.passThrough === true) builder.map(`${agent.path}.pass_through → nothing to set: Trellis streams every agent's answer in the run panel`);
    if (agent.context !== true)
      builder.map(
        `${agent.path}.context → the user prompt holds ${agent.context === false ? "only the root intent" : agent.context === "user_prompt" ? "only the user's message" : "the listed fields"}`,
      );
  }
  if (file.loop !== undefined && file.loop !== true && file.loop !== false) builder.skip("loop", "must be true or false; read as false");
  return builder.build({ name: flowId, description: rootIntent });
}

/** `.result` is the agent's text; `.result.<field>` one of its `returns` (a response-format field). */
function agentPath(agent: BridgeAgent, rest: string): string {
  const field = /^\.result\.([A-Za-z_][A-Za-z0-9_]*)(.*)$/.exec(rest);
  if (field && agent.returns.includes(field[1]!)) return `${field[1]}${field[2]}`;
  const returned = /^\.([A-Za-z_][A-Za-z0-9_]*)(.*)$/.exec(rest);
  if (returned && agent.returns.includes(returned[1]!)) return `${returned[1]}${returned[2]}`;
  return "content";
}

function toolsText(agent: BridgeAgent, server: string | undefined): string {
  if (!server) return "no tools";
  if (agent.tools === null) return `every tool of the MCP server '${server}'`;
  if (agent.tools.length === 0) return "no tools";
  return `the MCP server '${server}' tools ${agent.tools.join(", ")}`;
}

function removePlainEdge(builder: DocumentBuilder, source: string, target: string): void {
  const index = builder.edges.findIndex((edge) => edge.source === source && edge.target === target && edge.sourceHandle === "out" && !edge.condition);
  if (index !== -1) builder.edges.splice(index, 1);
}

function mapLoop(builder: DocumentBuilder, loop: BuiltBlock, gates: string[]): void {
  if (gates.length > 0) {
    loop.config.condition = `<loop.index> == 0 || ${gates.map((gate) => `(${gate})`).join(" || ")}`;
    builder.map(
      `loop: true → while Loop block '${loop.name}' around every agent: it repeats while a \`when\` still holds, at most ${LOOP_CAP} times (the bridge's cap)`,
    );
  } else {
    builder.skip(
      "loop: true",
      "no agent has a `when`, so nothing says when the repetition is done; the Loop block runs its agents once (edit its condition to repeat)",
    );
  }
}

/** `expected_responses`: a list of `{ choice_id: { to, with, value, input, each } }` groups, flattened. */
function askResponses(ask: Record<string, unknown> | undefined, path: string) {
  if (!ask) return [];
  const groups = ask.expected_responses ?? [];
  if (!Array.isArray(groups)) throw new ConversionError(`${path}.ask.expected_responses`, `${path}.ask.expected_responses must be a list`);
  return groups.flatMap((group, groupIndex) =>
    Object.entries(objectAt(group, `${path}.ask.expected_responses[${groupIndex}]`)).map(([id, raw]) => {
      const where = `${path}.ask.expected_responses[${groupIndex}].${id}`;
      const choice = objectAt(raw, where);
      return { id, where, choice, to: optionalString(choice.to, `${where}.to`), label: optionalString(choice.value, `${where}.value`) ?? id };
    }),
  );
}

function askBlock(
  builder: DocumentBuilder,
  agent: BridgeAgent,
  rule: { path: string; ask?: Record<string, unknown> },
  parentId: string | null,
  blocks: Map<string, BuiltBlock>,
  entries: Map<string, string>,
  graph: EdgeGraph,
  link: (source: string, target: string, handle?: string) => void,
  answeredBy: Map<string, string[]>,
): BuiltBlock | null {
  const responses = askResponses(rule.ask, rule.path);
  const choices: Array<{ id: string; label: string }> = [];
  const targets: Array<{ id: string; to: string }> = [];
  let allowText = false;
  for (const response of responses) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(response.id))
      throw new ConversionError(response.where, `${response.where}: '${response.id}' cannot be a choice id (1 to 64 of A-Z a-z 0-9 _ -)`);
    choices.push({ id: response.id, label: response.label.slice(0, 200) });
    if (response.choice.input !== undefined) {
      allowText = true;
      builder.skip(`${response.where}.input`, "an Ask block's fields are asked with every choice; this choice's input fields become the answer's free text");
    }
    if (response.choice.with !== undefined)
      builder.skip(`${response.where}.with`, "nothing is copied between contexts in Trellis: later blocks read the agent's output by reference");
    if (response.choice.each !== undefined)
      builder.skip(`${response.where}.each`, "an Ask block's choices are fixed when saved; one choice per item of a list is not supported");
    if (!response.to) continue;
    if (/^(workflows|external)\[/.test(response.to)) {
      builder.skip(
        `${response.where}.to (${response.to})`,
        "handing off to another workflow or an external system is not mapped; use a Workflow block or an API block on this choice",
      );
      continue;
    }
    if (!blocks.has(response.to)) throw new ConversionError(`${response.where}.to`, `${response.where}.to: no agent is called '${response.to}'`);
    targets.push({ id: response.id, to: response.to });
  }
  if (choices.length === 0) {
    builder.skip(`${rule.path}.ask`, "it offers no choices to route on");
    return null;
  }
  const source = blocks.get(agent.name)!;
  const ask = builder.addBlock({
    idHint: `ask_${agent.name}`,
    type: "ask",
    name: `Ask after ${agent.name}`,
    parentId,
    config: { question: `<${source.name}.content>`, choices, allowText },
  });
  graph.add(source.id, ask.id);
  for (const target of targets) {
    const entry = entries.get(target.to)!;
    if (entry === source.id || graph.reaches(entry, ask.id)) {
      builder.skip(
        `${rule.path} choice '${target.id}' → ${target.to}`,
        `'${target.to}' comes before this question, so the choice would make a cycle; Trellis repeats blocks only inside a Loop block`,
      );
      continue;
    }
    link(ask.id, entry, `choice:${target.id}`);
    answeredBy.set(target.to, [...(answeredBy.get(target.to) ?? []), ask.name]);
  }
  builder.map(
    `${rule.path}.ask → Ask block '${ask.name}' (choices ${choices.map((choice) => choice.id).join(", ")}); the agent is told to end with the question it was to ask`,
  );
  return ask;
}

interface PromptParts {
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

function agentConfig(agent: BridgeAgent, parts: PromptParts): Record<string, unknown> {
  const system = [parts.rewrite(agent.description)];
  if (typeof agent.passThrough === "string" && agent.passThrough.trim()) system.push(parts.rewrite(agent.passThrough));
  if (parts.tags.length > 0)
    system.push(`When one of these applies, end your answer with it: ${parts.tags.map((tag) => `<reroute>${tag}</reroute>`).join(", ")}.`);
  for (const instruction of parts.askInstructions) system.push(`Finish with the question for the user: ${instruction}`);
  const config: Record<string, unknown> = { model: parts.model, systemPrompt: system.filter(Boolean).join("\n\n"), userPrompt: userPrompt(agent, parts) };
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
  if (agent.context === false) lines.push(parts.rootIntent || agent.description || "Do your task.");
  else if (agent.context === "user_prompt") lines.push("<start.message>");
  else if (Array.isArray(agent.context)) {
    lines.push("Request: <start.message>");
    for (const path of agent.context) lines.push(`${path}: ${parts.rewrite(`\${${path}}`)}`);
  } else {
    if (parts.rootIntent) lines.push(`Goal: ${parts.rootIntent}`);
    lines.push("Request: <start.message>");
    for (const name of parts.contextInputs()) if (name !== "message") lines.push(`${name}: <start.${name}>`);
    for (const name of parts.upstream) lines.push(`Result of ${name}: <${name}.content ?? "(did not run)">`);
  }
  for (const ask of parts.answers) lines.push(`The user's answer: <${ask}.choice ?? ""> <${ask}.text ?? "">`);
  return lines.join("\n");
}

/** Reachability over the edges drawn so far, to refuse cycles before they are drawn. */
class EdgeGraph {
  private readonly out = new Map<string, Set<string>>();
  add(source: string, target: string): void {
    this.out.set(source, (this.out.get(source) ?? new Set()).add(target));
  }
  /** Whether a path of edges leads from `from` to `to`. */
  reaches(from: string, to: string): boolean {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id === to) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(this.out.get(id) ?? []));
    }
    return false;
  }
}
