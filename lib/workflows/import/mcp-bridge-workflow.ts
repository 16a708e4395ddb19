import {
  ConversionError,
  DocumentBuilder,
  optionalString,
  type BuiltBlock,
  type ConvertedFile,
} from "./document-builder";
import { EdgeGraph } from "./edge-graph";
import { askBlock, askResponses } from "./mcp-bridge-asks";
import { agentConfig, agentPath, ROOT_INTENT_VARIABLE, toolsText } from "./mcp-bridge-prompts";
import { rewriteDollarReferences } from "./dollar-references";
import { readAgents, type BridgeAgent } from "./mcp-bridge-agents";
import { numericNames, toolTrigger, translateWhen } from "./mcp-bridge-rules";
import { MAX_QUOTED_RESULTS, quotedUpstream } from "./mcp-bridge-upstream";
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
/** Initial-context fields quoted in an agent's prompt, for the same reason as MAX_QUOTED_RESULTS. */
const MAX_QUOTED_INPUTS = 20;

export function convertMcpBridgeWorkflow(file: Record<string, unknown>, options: ImportOptions): ConvertedFile {
  const builder = new DocumentBuilder("mcp-bridge-workflow");
  const agents = readAgents(file);
  const flowId = optionalString(file.flow_id, "flow_id") ?? "MCP-bridge workflow";
  const rootIntent = optionalString(file.root_intent, "root_intent") ?? "";
  const model = options.model ?? "offline/echo";
  const byName = new Map(agents.map((agent) => [agent.name, agent]));
  const returnedBy = new Map<string, BridgeAgent>();
  for (const agent of agents)
    for (const field of agent.returns) if (!returnedBy.has(field)) returnedBy.set(field, agent);

  // The start block: the user's message and every initial-context field the agents read.
  const inputs: Array<{ name: string; type: "string" | "number"; description: string }> = [
    { name: "message", type: "string", description: "The user's request (the bridge's chat message)" },
  ];
  const inputNames = new Set(["message"]);
  const addContextInput = (field: string, type: "string" | "number" = "string") => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) return false;
    if (!inputNames.has(field)) {
      inputNames.add(field);
      inputs.push({ name: field, type, description: "From the workflow's initial context" });
    }
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
    blocks.set(
      agent.name,
      builder.addBlock({ idHint: agent.name, type: "agent", name: agent.name, parentId: loop?.id, config: { model } }),
    );
  }

  // References: ${agent.result...}, ${initial_context.field}, ${tool_name.output}.
  const toolOwners = new Map<string, BridgeAgent>();
  for (const agent of agents)
    for (const tool of agent.tools ?? []) if (!toolOwners.has(tool)) toolOwners.set(tool, agent);
  const toolOwner = (tool: string) => toolOwners.get(tool);
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
      builder.skip(
        `${written} in ${where}`,
        "it names no agent, tool or initial-context field; the text is kept as written",
      ),
    );
  const whenName = (path: string) => {
    const [root, ...rest] = path.split(".");
    const tail = rest.length ? `.${rest.join(".")}` : "";
    if (root === "initial_context" && rest.length) return resolve(root, tail) ?? path;
    if (byName.has(root!)) return `<${blocks.get(root!)!.name}.${agentPath(byName.get(root!)!, tail)} ?? null>`;
    const producer = returnedBy.get(root!);
    if (producer) return `<${blocks.get(producer.name)!.name}.${root}${tail} ?? null>`;
    if (!addContextInput(root!)) return path;
    builder.map(
      `'${root}' in a \`when\`: no agent returns it, so it is read from the initial context (a Start input) and does not change while the flow runs`,
    );
    return `<start.${path}>`;
  };

  // `when` → a Condition block in front of the agent.
  const entries = new Map<string, string>();
  const gates: string[] = [];
  for (const agent of agents) {
    const block = blocks.get(agent.name)!;
    entries.set(agent.name, block.id);
    if (!agent.when) continue;
    for (const name of numericNames(agent.when))
      if (!name.includes(".") && !returnedBy.has(name) && !byName.has(name)) addContextInput(name, "number");
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
      if (routedTo.has(agent.name) && agent.index > 0)
        builder.map(`'${agent.name}' has no depends_on and is a reroute target: it runs only when rerouted to`);
      else link(firstSource, entry, loop ? "body" : "out");
      continue;
    }
    for (const dependency of agent.dependsOn) {
      const source = blocks.get(dependency)!.id;
      if (graph.reaches(entry, source))
        throw new ConversionError(
          `${agent.path}.depends_on`,
          `${agent.path}.depends_on: '${agent.name}' and '${dependency}' depend on each other`,
        );
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
        builder.skip(
          `${where} (${trigger})`,
          "the agent has no MCP tools (no MCP server was chosen), so no tool outcome can route",
        );
        return null;
      }
      if (tool) {
        routedTools.set(agent.name, (routedTools.get(agent.name) ?? new Set()).add(tool.tool));
        return { handle: `tool:${tool.tool}:${tool.outcome}` };
      }
      const tags = tagTriggers.get(agent.name) ?? [];
      if (!tags.includes(trigger)) tagTriggers.set(agent.name, [...tags, trigger]);
      builder.map(
        `${where} trigger '${trigger}' → an edge taken when the agent's answer holds <reroute>${trigger}</reroute>`,
      );
      return {
        handle: "out",
        condition: `contains(output.content, ${JSON.stringify(`<reroute>${trigger}</reroute>`)})`,
      };
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
      // One Ask block per rule, whichever of its triggers fires: one per trigger copied every choice once per trigger.
      const ask = rule.ask
        ? askBlock(builder, agent, rule, loop?.id ?? null, blocks, entries, graph, link, answeredBy)
        : null;
      for (const trigger of rule.on) {
        if (rule.target) route(rule.target, trigger, rule.path);
        if (!ask) continue;
        const leaving = leave(trigger, rule.path);
        if (leaving) link(source.id, ask.id, leaving.handle, leaving.condition);
      }
      const instruction = ask ? optionalString(rule.ask!.question, `${rule.path}.ask.question`) : undefined;
      if (instruction) {
        const instructions = askInstructions.get(agent.name);
        if (instructions) instructions.push(instruction);
        else askInstructions.set(agent.name, [instruction]);
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
      builder.map(
        `'${agent.name}': every reroute to it was left out, so it starts with the flow as an agent with no depends_on does`,
      );
    }
  }
  const agentOrder = new Map(agents.map((agent) => [blocks.get(agent.name)!.id, agent.index]));
  const upstream = quotedUpstream(
    builder.edges,
    agentOrder,
    new Map(agents.map((agent) => [blocks.get(agent.name)!.id, entries.get(agent.name)!])),
  );
  const blockNames = new Map([...blocks.values()].map((block) => [block.id, block.name]));
  const quotedInputs = () => inputs.slice(0, MAX_QUOTED_INPUTS).map((input) => input.name);
  for (const agent of agents) {
    const block = blocks.get(agent.name)!;
    block.config = agentConfig(agent, {
      model,
      server: options.mcpServer,
      rootIntent,
      routed: [...(routedTools.get(agent.name) ?? [])],
      tags: tagTriggers.get(agent.name) ?? [],
      askInstructions: askInstructions.get(agent.name) ?? [],
      upstream: upstream.get(block.id)!.map((id) => blockNames.get(id)!),
      answers: answeredBy.get(agent.name) ?? [],
      contextInputs: quotedInputs,
      rewrite: (text) => rewrite(text, agent.path),
    });
    builder.map(
      `${agent.path} (${agent.name}) → Agent block '${block.name}' with ${toolsText(agent, options.mcpServer)}`,
    );
    if (!options.mcpServer && agent.tools?.length !== 0) {
      builder.skip(
        `${agent.path}.tools`,
        "no MCP server was chosen and the workspace has none to choose from (configure TRELLIS_MCP_SERVERS, then import again naming mcpServer), so the agent has no tools",
      );
    }
    for (const setting of agent.toolSettings)
      builder.skip(
        setting.what,
        "per-tool arguments and settings are not part of an MCP tool entry in Trellis; the model fills in the arguments",
      );
    if (agent.passThrough === true)
      builder.map(`${agent.path}.pass_through → nothing to set: Trellis streams every agent's answer in the run panel`);
    if (agent.context !== true)
      builder.map(
        `${agent.path}.context → the user prompt holds ${agent.context === false ? "only the root intent" : agent.context === "user_prompt" ? "only the user's message" : "the listed fields"}`,
      );
  }
  if (file.loop !== undefined && file.loop !== true && file.loop !== false)
    builder.skip("loop", "must be true or false; read as false");
  if (agents.length > MAX_QUOTED_RESULTS + 1)
    builder.map(
      `context → each agent's prompt quotes the results of the agents it depends on and of its nearest earlier agents, at most ${MAX_QUOTED_RESULTS} besides its dependencies (the bridge hands every agent every earlier result; quoting all of them in each prompt would grow with the square of the flow)`,
    );
  if (inputs.length > MAX_QUOTED_INPUTS)
    builder.skip(
      "initial_context",
      `an agent's prompt quotes the first ${MAX_QUOTED_INPUTS} of the ${inputs.length} initial-context fields; the others reach an agent where its text names them (\${initial_context.name})`,
    );
  if (rootIntent)
    builder.map(
      `root_intent → the workflow variable '${ROOT_INTENT_VARIABLE}', which each agent's prompt reads as its goal`,
    );
  return builder.build({
    name: flowId,
    description: rootIntent,
    variables: rootIntent ? { [ROOT_INTENT_VARIABLE]: rootIntent } : {},
  });
}

function removePlainEdge(builder: DocumentBuilder, source: string, target: string): void {
  const index = builder.edges.findIndex(
    (edge) => edge.source === source && edge.target === target && edge.sourceHandle === "out" && !edge.condition,
  );
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
