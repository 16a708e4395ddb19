/**
 * The workflows the canvas benchmark opens and runs (scripts/bench-canvas.ts): a grid of blocks
 * chained row by row, and a fan of agents all fed by the start block, which run side by side.
 */

type Block = Record<string, unknown> & { id: string };
type Edge = Record<string, unknown>;

export interface BenchDocument {
  name: string;
  blocks: Block[];
  edges: Edge[];
}

const START: Block = {
  id: "start",
  type: "start",
  name: "Start",
  position: { x: 0, y: 0 },
  config: { inputs: [{ name: "message", type: "string" }] },
};

/** Grid cell of the `index`-th block (from 1), `columns` to a row, spaced as a person lays blocks out. */
function gridPosition(index: number, columns: number) {
  const row = Math.floor((index - 1) / columns);
  const column = (index - 1) % columns;
  return { row, column, position: { x: 320 + column * 320, y: row * 160 } };
}

/** `size` blocks (the start included) of three kinds in a square grid, each row a chain from the start. */
export function gridDocument(size: number): BenchDocument {
  const columns = Math.ceil(Math.sqrt(size));
  const kinds = ["agent", "function", "api"] as const;
  const blocks: Block[] = [START];
  const edges: Edge[] = [];
  for (let index = 1; index < size; index += 1) {
    const { column, position } = gridPosition(index, columns);
    const kind = kinds[index % kinds.length]!;
    const config =
      kind === "agent"
        ? { model: "offline/echo", userPrompt: "Reply to <Start.message>" }
        : kind === "function"
          ? { code: "return 1 + 1" }
          : { url: "https://example.com/items", method: "GET" };
    blocks.push({ id: `b${index}`, type: kind, name: `Block ${index}`, position, config });
    edges.push({
      id: `e${index}`,
      source: column === 0 ? "start" : `b${index - 1}`,
      target: `b${index}`,
      sourceHandle: "out",
    });
  }
  return { name: `Bench ${size} blocks`, blocks, edges };
}

/**
 * `count` agents on the offline model, every one fed by the start block: a run starts them all
 * at once (within the engine's concurrency cap) and each streams its answer word by word, so the
 * canvas gets a stream of start, delta and completion events spread over many nodes.
 */
export function parallelDocument(count: number): BenchDocument {
  const columns = Math.ceil(Math.sqrt(count));
  const blocks: Block[] = [START];
  const edges: Edge[] = [];
  for (let index = 1; index <= count; index += 1) {
    const { position } = gridPosition(index, columns);
    blocks.push({
      id: `p${index}`,
      type: "agent",
      name: `Agent ${index}`,
      position,
      config: { model: "offline/echo", userPrompt: "Reply to <Start.message>" },
    });
    edges.push({ id: `e${index}`, source: "start", target: `p${index}`, sourceHandle: "out" });
  }
  return { name: `Bench ${count} parallel agents`, blocks, edges };
}
