/** start -> agent (with tools) -> response `{ answer: <agent.content> }`, for workflow-tool tests. */
export function agentWorkflow(options: {
  name: string;
  description?: string;
  inputs: Array<Record<string, unknown>>;
  userPrompt: string;
  tools?: unknown[];
  model?: string;
}) {
  return {
    name: options.name,
    description: options.description ?? "",
    variables: {},
    blocks: [
      { id: "start", type: "start", name: "Start", position: { x: 0, y: 0 }, config: { inputs: options.inputs } },
      {
        id: "agent",
        type: "agent",
        name: "Agent",
        position: { x: 240, y: 0 },
        config: {
          model: options.model ?? "openai/gpt-4o-mini",
          userPrompt: options.userPrompt,
          ...(options.tools ? { tools: options.tools } : {}),
        },
      },
      {
        id: "response",
        type: "response",
        name: "Response",
        position: { x: 480, y: 0 },
        config: { data: { answer: "<agent.content>" } },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "agent" },
      { id: "e2", source: "agent", target: "response" },
    ],
  };
}
