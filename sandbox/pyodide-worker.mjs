// The Python sandbox worker: runs one user script in Pyodide (CPython compiled to WebAssembly)
// inside a worker thread, so a runaway script costs this thread, never the server's. Plain
// JavaScript because worker threads load files with Node's own loader. Message shapes:
// sandbox/protocol.ts; what runs in Python: sandbox/python-prelude.py.
//
// It loads Pyodide as soon as it starts (from node_modules, nothing downloaded), closes every way
// from Python to the host (python-hardening.mjs), says "ready", and then waits for its one job: a
// warm worker can be started before any job exists (sandbox/python-warm-pool.ts).
//
// Starting CPython takes seconds; restoring its memory once started takes a fraction of that. So
// the first worker of a process starts it, runs the prelude, and hands the host a snapshot of the
// memory before any code of a user has run (sandbox/python-snapshot.ts); every later worker gets
// its own copy (workerData.snapshot) and restores it.
//
// Limits:
// - memory: Pyodide's WebAssembly memory may not grow past the job's limit plus Pyodide's own
//   baseline; a refused growth is a MemoryError inside Python;
// - CPU: the host raises KeyboardInterrupt through a shared interrupt buffer once the time the
//   code spent running passes the budget, and terminates this worker if that does not stop it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { hardenAfterLoad, hardenBeforeLoad } from "./python-hardening.mjs";

if (!parentPort) throw new Error("pyodide-worker.mjs must run as a worker thread");
const port = parentPort;

const MAX_MESSAGE_CHARS = 4000;
const require = createRequire(import.meta.url);
const pyodideDirectory = path.dirname(require.resolve("pyodide/package.json")) + path.sep;
const preludeSource = workerData?.snapshot ? "" : readFileSync(new URL("./python-prelude.py", import.meta.url), "utf8");

let job = null;
const pendingCalls = new Map();
let nextCallId = 1;

port.on("message", (message) => {
  if (message?.type === "run") {
    if (job) return;
    job = message;
    prepared.then((sandbox) =>
      sandbox.ok
        ? runJob(sandbox, message)
        : report({
            ok: false,
            error: { code: "sandbox_error", message: clip(`The Python sandbox could not start: ${sandbox.error}`) },
          }),
    );
  } else if (message?.type === "service-result") {
    const resolve = pendingCalls.get(message.callId);
    if (!resolve) return;
    pendingCalls.delete(message.callId);
    resolve(
      message.ok ? `{"ok":true,"result":${message.resultJson}}` : JSON.stringify({ ok: false, error: message.error }),
    );
    clock.resume();
  }
});

// A warm worker prepares before it has a job; a failure is reported to the job that comes.
const prepared = prepare().catch((error) => ({ ok: false, error: messageOf(error) }));

/** Loads Pyodide, closes the ways out, and runs the prelude; the worker is then warm. */
async function prepare() {
  const startedAt = performance.now();
  const node = hardenBeforeLoad(require);
  const { loadPyodide } = await import("pyodide");
  const snapshot = workerData?.snapshot instanceof ArrayBuffer ? new Uint8Array(workerData.snapshot) : null;
  const pyodide = await loadPyodide({
    indexURL: pyodideDirectory,
    // The `js` module Python sees: nothing of this thread's globals.
    jsglobals: Object.freeze(Object.create(null)),
    env: { HOME: "/home/pyodide" },
    stdout: () => {},
    stderr: () => {},
    // Stack switching is not available in Node 20; asyncio.run is replaced in the prelude.
    enableRunUntilComplete: false,
    ...(snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: true }),
  });
  // The copy of the snapshot is in Pyodide's memory now; this one would only hold 30 MB.
  if (snapshot) workerData.snapshot = null;
  pyodide.setStdout({ batched: () => {} });
  pyodide.setStderr({ batched: () => {} });
  if (!snapshot) {
    pyodide.runPython(preludeSource, { filename: "trellis_prelude.py" });
    const made = pyodide.makeMemorySnapshot().slice().buffer;
    port.postMessage({ type: "snapshot", snapshot: made }, [made]);
  }
  const run = pyodide.globals.get("_trellis_run");
  const readStdout = pyodide.globals.get("_trellis_stdout");
  const memory = pyodide._module?.wasmMemory ?? pyodide._module?.memory;
  if (!(memory instanceof WebAssembly.Memory)) throw new Error("Pyodide's WebAssembly memory was not found");
  hardenAfterLoad(pyodide, node);
  port.postMessage({
    type: "ready",
    loadMs: Math.round(performance.now() - startedAt),
    memoryBytes: memory.buffer.byteLength,
  });
  return { ok: true, pyodide, run, readStdout, memory };
}

/** Time the code spends running: from "started" on, less the time it waits for host services. */
const clock = {
  usedMs: 0,
  since: null,
  start() {
    this.since = performance.now();
  },
  pause() {
    if (this.since !== null) this.usedMs += performance.now() - this.since;
    this.since = null;
  },
  resume() {
    if (pendingCalls.size === 0 && this.since === null && !finished) this.since = performance.now();
  },
  total() {
    return this.usedMs + (this.since === null ? 0 : performance.now() - this.since);
  },
};

let finished = false;
let memoryCapBytes = Infinity;

function hostCall(service, argsJson) {
  const callId = nextCallId++;
  return new Promise((resolve) => {
    pendingCalls.set(callId, resolve);
    clock.pause();
    port.postMessage({ type: "service-call", callId, service: String(service), argsJson: String(argsJson) });
  });
}

async function runJob(sandbox, { code, settingsJson, limits, interruptBuffer }) {
  const { pyodide, run, memory } = sandbox;
  memoryCapBytes = limits.memoryBytes + limits.baselineBytes;
  capMemory(memory, () => memoryCapBytes);
  if (interruptBuffer) pyodide.setInterruptBuffer(new Int32Array(interruptBuffer));
  port.postMessage({ type: "started" });
  clock.start();
  let envelope;
  try {
    envelope = JSON.parse(await run(code, settingsJson, hostCall));
  } catch (error) {
    return finish(sandbox, failureOfCrash(memory, error));
  }
  if (!envelope.ok) return finish(sandbox, { ok: false, error: envelope.error });
  if (envelope.output.length > limits.maxOutputBytes || Buffer.byteLength(envelope.output) > limits.maxOutputBytes) {
    return finish(sandbox, {
      ok: false,
      error: {
        code: "sandbox_output",
        message: `The result is ${Buffer.byteLength(envelope.output)} bytes of JSON, over the limit of ${limits.maxOutputBytes} bytes`,
      },
    });
  }
  finish(sandbox, { ok: true, outputJson: envelope.output });
}

/** Refuses growth of the WebAssembly memory past the cap: Emscripten's allocator then fails, which Python raises as MemoryError. */
function capMemory(memory, cap) {
  const grow = memory.grow.bind(memory);
  Object.defineProperty(memory, "grow", {
    value: (pages) => {
      if (memory.buffer.byteLength + pages * 65536 > cap())
        throw new RangeError("WebAssembly.Memory.grow(): over the sandbox's limit");
      return grow(pages);
    },
  });
}

function memoryExhausted(memory) {
  return memory.buffer.byteLength + 4 * 1024 * 1024 >= memoryCapBytes;
}

/** Pyodide itself failed (out of memory, a stack overflow, an interrupted host call). */
function failureOfCrash(memory, error) {
  if (memoryExhausted(memory) || /memory/i.test(messageOf(error)))
    return { ok: false, error: { code: "sandbox_memory", message: memoryMessage() } };
  if (/call stack|recursion/i.test(messageOf(error)))
    return {
      ok: false,
      error: {
        code: "sandbox_error",
        message: "RecursionError: maximum recursion depth exceeded (recursion too deep)",
      },
    };
  return {
    ok: false,
    error: { code: "sandbox_error", message: clip(`The Python sandbox failed: ${messageOf(error)}`) },
  };
}

function memoryMessage() {
  return `The code used more than its memory limit of ${Math.round(job.limits.memoryBytes / 1048576)} MB and was stopped`;
}

function finish(sandbox, outcome) {
  if (finished) return;
  clock.pause();
  finished = true;
  let stdout = { text: "", truncated: false };
  try {
    stdout = JSON.parse(sandbox.readStdout());
  } catch {
    // A crashed interpreter may not answer; the run's own failure says what happened.
  }
  let error = outcome.error;
  if (error?.code === "sandbox_memory") error = { ...error, message: memoryMessage() };
  if (error?.code === "sandbox_timeout")
    error = {
      ...error,
      message: `The code ran longer than its time limit of ${job.limits.cpuTimeMs} ms and was stopped`,
    };
  report(outcome.ok ? outcome : { ok: false, error }, stdout);
}

function report(outcome, stdout = { text: "", truncated: false }) {
  const common = { stdout: stdout.text, stdoutTruncated: stdout.truncated, cpuTimeMs: Math.round(clock.total()) };
  if (outcome.ok) port.postMessage({ type: "done", ok: true, outputJson: outcome.outputJson, ...common });
  else port.postMessage({ type: "done", ok: false, error: outcome.error, ...common });
  // No clean-up: the host terminates this worker, which frees the whole WebAssembly memory.
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

function clip(text) {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}
