import { ConversionError, objectAt, optionalString, type BuiltBlock, type DocumentBuilder } from "./document-builder";
import type { EdgeGraph } from "./edge-graph";
import type { BridgeAgent } from "./mcp-bridge-agents";

/** An MCP-bridge reroute's `ask` (seed 004's human-in-the-loop questions) as an Ask block whose choices lead to their agents. */

/** `expected_responses`: a list of `{ choice_id: { to, with, value, input, each } }` groups, flattened. */
export function askResponses(ask: Record<string, unknown> | undefined, path: string) {
  if (!ask) return [];
  const groups = ask.expected_responses ?? [];
  if (!Array.isArray(groups))
    throw new ConversionError(`${path}.ask.expected_responses`, `${path}.ask.expected_responses must be a list`);
  return groups.flatMap((group, groupIndex) =>
    Object.entries(objectAt(group, `${path}.ask.expected_responses[${groupIndex}]`)).map(([id, raw]) => {
      const where = `${path}.ask.expected_responses[${groupIndex}].${id}`;
      const choice = objectAt(raw, where);
      return {
        id,
        where,
        choice,
        to: optionalString(choice.to, `${where}.to`),
        label: optionalString(choice.value, `${where}.value`) ?? id,
      };
    }),
  );
}

export function askBlock(
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
      throw new ConversionError(
        response.where,
        `${response.where}: '${response.id}' cannot be a choice id (1 to 64 of A-Z a-z 0-9 _ -)`,
      );
    choices.push({ id: response.id, label: response.label.slice(0, 200) });
    if (response.choice.input !== undefined) {
      allowText = true;
      builder.skip(
        `${response.where}.input`,
        "an Ask block's fields are asked with every choice; this choice's input fields become the answer's free text",
      );
    }
    if (response.choice.with !== undefined)
      builder.skip(
        `${response.where}.with`,
        "nothing is copied between contexts in Trellis: later blocks read the agent's output by reference",
      );
    if (response.choice.each !== undefined)
      builder.skip(
        `${response.where}.each`,
        "an Ask block's choices are fixed when saved; one choice per item of a list is not supported",
      );
    if (!response.to) continue;
    if (/^(workflows|external)\[/.test(response.to)) {
      builder.skip(
        `${response.where}.to (${response.to})`,
        "handing off to another workflow or an external system is not mapped; use a Workflow block or an API block on this choice",
      );
      continue;
    }
    if (!blocks.has(response.to))
      throw new ConversionError(`${response.where}.to`, `${response.where}.to: no agent is called '${response.to}'`);
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
    const answered = answeredBy.get(target.to);
    if (answered) answered.push(ask.name);
    else answeredBy.set(target.to, [ask.name]);
  }
  builder.map(
    `${rule.path}.ask → Ask block '${ask.name}' (choices ${choices.map((choice) => choice.id).join(", ")}); the agent is told to end with the question it was to ask`,
  );
  return ask;
}
