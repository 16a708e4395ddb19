import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SCRIPT = path.join(REPO_ROOT, "lib", "workspaces", "__fixtures__", "caller-process.ts");

export interface CallerProcess {
  pid: number;
  /** GET / on the other process with these headers: its status and body. */
  ask(headers: Record<string, string>): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

/** Starts caller-process.ts as its own Node process over the database at `url`. */
export async function startCallerProcess(url: string, secret: string): Promise<CallerProcess> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && name !== "DATABASE_URL" && !name.startsWith("TRELLIS_")) env[name] = value;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", SCRIPT], {
    cwd: REPO_ROOT,
    env: { ...env, NODE_ENV: process.env.NODE_ENV ?? "test", CALLER_DATABASE_URL: url, CALLER_AUTH_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /\[caller-process\] listening on (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on("data", look);
    child.stderr!.on("data", look);
    child.once("exit", (code) => reject(new Error(`caller-process exited (${code}) before it listened:\n${output}`)));
  });
  return {
    pid: child.pid ?? -1,
    async ask(headers) {
      const response = await fetch(`http://127.0.0.1:${port}/`, { headers });
      return { status: response.status, body: await response.json() };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
