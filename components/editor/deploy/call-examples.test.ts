import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { exampleInput } from "@/components/ui/shell-example";
import { curlExample, javascriptExample } from "./call-examples";

const options = {
  origin: "http://127.0.0.1:3000",
  workflowId: "wf-1",
  input: exampleInput([
    { name: "question", type: "string" },
    { name: "topK", type: "number", default: 3 },
  ]),
  keyHint: "trl_ab12cd34",
} as const;

describe("call examples", () => {
  it("fill each declared input with its default or an example of its type", () => {
    expect(options.input).toEqual({ question: "some question", topK: 3 });
  });

  it("give a curl command a shell parses into the execute request, with the key from the environment", () => {
    const command = curlExample({ ...options, input: { note: "it's" }, mode: "wait" });
    // The shell's own reading of the command: each argument as curl would receive it.
    const args = execFileSync(
      "bash",
      ["-c", `args() { printf '%s\\n' "$@"; }; ${command.split("\n").slice(1).join("\n").replace(/^curl/, "args")}`],
      {
        env: { ...process.env, TRELLIS_API_KEY: "trl_secret" },
        encoding: "utf8",
      },
    ).split("\n");
    expect(args).toContain("http://127.0.0.1:3000/api/workflows/wf-1/execute");
    expect(args).toContain("Authorization: Bearer trl_secret");
    expect(JSON.parse(args[args.indexOf("-d") + 1]!)).toEqual({ input: { note: "it's" }, wait: true });
    expect(command).not.toContain("trl_secret");
  });

  it("ask for an event stream only in stream mode, and read the answer the way each mode answers", () => {
    expect(curlExample({ ...options, mode: "stream" })).toContain("Accept: text/event-stream");
    expect(curlExample({ ...options, mode: "background" })).not.toContain("event-stream");
    expect(javascriptExample({ ...options, mode: "wait" })).toContain("run.output");
    expect(javascriptExample({ ...options, mode: "background" })).toContain("runId");
    expect(javascriptExample({ ...options, mode: "stream" })).toContain("response.body");
  });
});
