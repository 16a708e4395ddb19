/**
 * The processes the throughput bench starts (migrations, `next start`, the worker): each in its own
 * process group, so stopping one stops whatever it started, and every one still running is
 * stopped when the bench ends, fails or is interrupted.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export interface Managed {
  name: string;
  child: ChildProcess;
  /** The last lines it printed (stdout and stderr), for error messages. */
  log: string[];
  /** Resolves with its exit code (or signal name) once it has exited. */
  exited: Promise<number | string>;
  hasExited: () => boolean;
}

const MAX_LOG_LINES = 200;
const running = new Set<Managed>();

/** Starts a process in a new process group; `echo` also prints its output, prefixed with its name. */
export function start(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { echo?: boolean } = {},
): Managed {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const log: string[] = [];
  let exited = false;
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line.trim()) continue;
      log.push(line);
      if (log.length > MAX_LOG_LINES) log.shift();
      if (options.echo) console.log(`  [${name}] ${line}`);
    }
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const managed: Managed = {
    name,
    child,
    log,
    hasExited: () => exited,
    exited: new Promise((resolve) => {
      child.on("exit", (code, signal) => {
        exited = true;
        running.delete(managed);
        resolve(code ?? signal ?? "unknown");
      });
      child.on("error", (error) => {
        log.push(`spawn failed: ${error.message}`);
        exited = true;
        running.delete(managed);
        resolve("spawn-error");
      });
    }),
  };
  running.add(managed);
  return managed;
}

/** Runs a command to its end; throws with its output when it fails. */
export async function runToEnd(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const managed = start(name, command, args, env);
  const code = await managed.exited;
  if (code !== 0) throw new Error(`${name} failed (${code}):\n${managed.log.slice(-30).join("\n")}`);
}

function signalGroup(managed: Managed, signal: NodeJS.Signals): void {
  const pid = managed.child.pid;
  if (pid === undefined || managed.hasExited()) return;
  try {
    process.kill(-pid, signal); // its whole process group: the ones it started too
  } catch {
    try {
      managed.child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** Stops a process and its group: SIGTERM, then SIGKILL when it has not exited within `graceMs`. */
export async function stop(managed: Managed, graceMs = 15_000): Promise<void> {
  if (managed.hasExited()) return;
  signalGroup(managed, "SIGTERM");
  const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), graceMs).unref());
  if ((await Promise.race([managed.exited, timer])) === "timeout") {
    console.warn(`  ${managed.name} did not stop within ${graceMs / 1000} s; killing it`);
    signalGroup(managed, "SIGKILL");
    await managed.exited;
  }
}

/** Stops every process the bench started that is still running (at the end, on error, on Ctrl-C). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].reverse().map((managed) => stop(managed, 10_000)));
}

/** Last resort when the bench process itself exits without having stopped them. */
export function killAllNow(): void {
  for (const managed of running) signalGroup(managed, "SIGKILL");
}

/** Waits until `check` answers true, failing when one of `watch` exits first or after `timeoutMs`. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  watch: Managed[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = watch.find((managed) => managed.hasExited());
    if (dead) throw new Error(`${dead.name} exited while waiting for ${what}:\n${dead.log.slice(-40).join("\n")}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) {
      const logs = watch.map((managed) => `--- ${managed.name}\n${managed.log.slice(-20).join("\n")}`).join("\n");
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}\n${logs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A TCP port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
