import { shellQuote } from "@/components/ui/shell-example";

/** How a program calls a deployed workflow: the snippets the API tab shows, ready to copy. */

export type CallMode = "wait" | "stream" | "background";

export interface CallExampleOptions {
  /** The server's origin as the browser sees it. */
  origin: string;
  workflowId: string;
  /** An example input built from the start block's inputs. */
  input: Record<string, unknown>;
  /** What stands in for the key: the start of one of the caller's keys, or a placeholder. */
  keyHint: string;
  mode: CallMode;
}

const body = (input: Record<string, unknown>, mode: CallMode) =>
  JSON.stringify({ input, ...(mode === "wait" ? { wait: true } : {}) });

/** curl, with the key read from an environment variable so it stays out of shell history. */
export function curlExample({ origin, workflowId, input, keyHint, mode }: CallExampleOptions): string {
  const lines = [
    `# TRELLIS_API_KEY=${keyHint}…  (the whole key, shown once when it was created)`,
    `curl -sS -X POST '${origin}/api/workflows/${workflowId}/execute' \\`,
    `  -H "Authorization: Bearer $TRELLIS_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    ...(mode === "stream" ? [`  -H 'Accept: text/event-stream' -N \\`] : []),
    `  -d ${shellQuote(body(input, mode))}`,
  ];
  return lines.join("\n");
}

/** fetch in JavaScript (Node 18+ or a browser with the key kept server-side). */
export function javascriptExample({ origin, workflowId, input, keyHint, mode }: CallExampleOptions): string {
  const request = [
    `const response = await fetch("${origin}/api/workflows/${workflowId}/execute", {`,
    `  method: "POST",`,
    `  headers: {`,
    `    Authorization: \`Bearer \${process.env.TRELLIS_API_KEY}\`, // ${keyHint}…`,
    `    "Content-Type": "application/json",`,
    ...(mode === "stream" ? [`    Accept: "text/event-stream",`] : []),
    `  },`,
    `  body: JSON.stringify(${body(input, mode)}),`,
    `});`,
  ];
  const reading =
    mode === "wait"
      ? [`const run = await response.json();`, `console.log(run.status, run.output);`]
      : mode === "stream"
        ? [
            `const decoder = new TextDecoder();`,
            `for await (const chunk of response.body) process.stdout.write(decoder.decode(chunk, { stream: true }));`,
          ]
        : [`const { runId } = await response.json(); // then GET /api/runs/\${runId}`];
  return [...request, ...reading].join("\n");
}
