/**
 * The hostile file of issue 30: an MCP-bridge workflow of agents, each depending on the one before
 * and naming an initial-context field of its own. Its converted size grew with the square of n.
 */

/** n agents in a chain under one goal. */
export function bridgeChain(n: number, goal = "Answer the request step by step") {
  return {
    flow_id: "chain",
    root_intent: goal,
    agents: Array.from({ length: n }, (_, index) => ({
      agent: `a${index}`,
      description: `Step ${index}: use \${initial_context.f${index}}`,
      ...(index > 0 ? { depends_on: [`a${index - 1}`] } : {}),
    })),
  };
}

/** The longest such chain whose JSON is at most `bytes` (31 KB, 63 KB, 1.6 MB in the issue). */
export function bridgeChainOfBytes(bytes: number) {
  const size = (n: number) => Buffer.byteLength(JSON.stringify(bridgeChain(n)));
  let n = Math.round(bytes / (size(2) / 2));
  while (size(n) > bytes) n -= 1;
  return bridgeChain(n);
}
