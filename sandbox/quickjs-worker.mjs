// The sandbox worker: runs one user script in QuickJS (WebAssembly) inside a worker thread, so a
// runaway script costs this thread, never the server's. Plain JavaScript because worker threads
// load files with Node's own loader. Message shapes: sandbox/protocol.ts.
//
// Limits:
// - memory: the WebAssembly memory itself is capped. QuickJS's own malloc limit undercounts in
//   this build (malloc_usable_size is unavailable, so it counts 8 bytes per allocation), so it is
//   set as well but not trusted alone;
// - CPU: the interrupt handler stops the script once the time it spent inside QuickJS passes the
//   budget (waiting on host services is free). The host terminates this worker if that ever fails.
import { parentPort } from "node:worker_threads";
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC } from "quickjs-emscripten";

if (!parentPort) throw new Error("quickjs-worker.mjs must run as a worker thread");
const port = parentPort;

const PAGE_BYTES = 64 * 1024;
// Text that leaves the sandbox in an error message; the prelude bounds it already, this is the backstop.
const MAX_MESSAGE_CHARS = 4000;

port.once("message", (message) => {
  runJob(message).catch((error) => {
    port.postMessage({
      type: "done",
      ok: false,
      error: {
        code: "sandbox_error",
        message: `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`,
      },
      stdout: "",
      stdoutTruncated: false,
      cpuTimeMs: 0,
    });
  });
});

async function runJob({ prelude, code, settingsJson, limits }) {
  // The host reserved this much for us (sandbox/sandbox-footprint.ts): QuickJS's baseline (its
  // runtime, C stack, static data) beyond the heap limit, and not a page more.
  const memory = new WebAssembly.Memory({
    initial: limits.baselineBytes / PAGE_BYTES,
    maximum: Math.ceil((limits.memoryBytes + limits.baselineBytes) / PAGE_BYTES),
  });
  const quickjs = await newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const job = new Job(runtime, memory, limits);
  try {
    job.start(prelude, code, settingsJson);
  } catch (error) {
    job.fatal(error);
  }
}

class Job {
  constructor(runtime, memory, limits) {
    this.runtime = runtime;
    this.memory = memory;
    this.limits = limits;
    this.context = runtime.newContext();
    this.pendingCalls = new Map();
    this.nextCallId = 1;
    this.finished = false;
    this.sandboxApi = null;
    this.promise = null;
    this.usedMs = 0;
    this.sliceStartedAt = null;
    this.interrupted = false;
    runtime.setInterruptHandler(() => {
      if (this.sliceStartedAt !== null && this.usedMs + (performance.now() - this.sliceStartedAt) > limits.cpuTimeMs)
        this.interrupted = true;
      return this.interrupted;
    });
    port.on("message", (message) => this.onServiceResult(message));
  }

  /** Every entry into QuickJS goes through here so that its time counts against the budget. */
  slice(enter) {
    this.sliceStartedAt = performance.now();
    try {
      return enter();
    } finally {
      this.usedMs += performance.now() - this.sliceStartedAt;
      this.sliceStartedAt = null;
    }
  }

  start(prelude, code, settingsJson) {
    const { context } = this;
    const host = this.newHostObject();
    const preludeResult = this.slice(() => context.evalCode(prelude, "trellis-prelude.js"));
    if (preludeResult.error) return this.fail(this.failureFromError(preludeResult.error, "Sandbox prelude failed: "));
    const settings = context.newString(settingsJson);
    const apiResult = this.slice(() => context.callFunction(preludeResult.value, context.undefined, host, settings));
    settings.dispose();
    host.dispose();
    preludeResult.value.dispose();
    if (apiResult.error) return this.fail(this.failureFromError(apiResult.error, "Sandbox prelude failed: "));
    this.sandboxApi = apiResult.value;

    port.postMessage({ type: "started" });

    const mainResult = this.slice(() => context.evalCode(code, "function.js"));
    if (mainResult.error) return this.fail(this.failureFromError(mainResult.error, ""));
    const runFunction = context.getProp(this.sandboxApi, "run");
    const promiseResult = this.slice(() => context.callFunction(runFunction, this.sandboxApi, mainResult.value));
    runFunction.dispose();
    mainResult.value.dispose();
    if (promiseResult.error) return this.fail(this.failureFromError(promiseResult.error, ""));
    this.promise = promiseResult.value;
    context.resolvePromise(this.promise).then((settled) => {
      try {
        this.settle(settled);
      } catch (error) {
        this.fatal(error);
      }
    });
    this.runPendingJobs();
    setImmediate(() => this.checkStalled());
  }

  /** `host.call(service, argsJson) -> Promise<resultJson>`: the sandbox's only way out. */
  newHostObject() {
    const { context } = this;
    const host = context.newObject();
    const call = context.newFunction("call", (serviceHandle, argsHandle) => {
      const service = context.getString(serviceHandle);
      const argsJson = context.getString(argsHandle);
      const callId = this.nextCallId++;
      const deferred = context.newPromise();
      this.pendingCalls.set(callId, deferred);
      port.postMessage({ type: "service-call", callId, service, argsJson });
      return deferred.handle;
    });
    context.setProp(host, "call", call);
    call.dispose();
    return host;
  }

  onServiceResult(message) {
    if (message?.type !== "service-result" || this.finished) return;
    const deferred = this.pendingCalls.get(message.callId);
    if (!deferred) return;
    this.pendingCalls.delete(message.callId);
    try {
      const { context } = this;
      if (message.ok) {
        const value = context.newString(message.resultJson);
        deferred.resolve(value);
        value.dispose();
      } else {
        const error = context.newError({ name: message.error.name, message: message.error.message });
        const code = context.newString(message.error.code);
        context.setProp(error, "code", code);
        code.dispose();
        deferred.reject(error);
        error.dispose();
      }
      deferred.dispose();
    } catch (error) {
      return this.fatal(error);
    }
    this.runPendingJobs();
    setImmediate(() => this.checkStalled());
  }

  runPendingJobs() {
    let result;
    try {
      result = this.slice(() => this.runtime.executePendingJobs());
    } catch (error) {
      return this.fatal(error);
    }
    if (result.error) return this.fail(this.failureFromError(result.error, ""));
    if (this.interrupted) this.fail(this.timeoutFailure());
  }

  // resolvePromise settles on a microtask; if after that nothing is pending on the host and the
  // promise is still pending, the code awaits something that can never happen.
  checkStalled() {
    if (this.finished || this.pendingCalls.size > 0 || !this.promise) return;
    let state;
    try {
      state = this.context.getPromiseState(this.promise);
    } catch (error) {
      return this.fatal(error);
    }
    if (state.type === "pending") {
      this.fail({
        code: "sandbox_error",
        message: "The code awaits a promise that never settles (there are no timers in the sandbox)",
      });
      return;
    }
    // Settled, yet resolvePromise never told us: the code replaced Promise.prototype.then, which
    // resolvePromise goes through. Finish from the state itself rather than wait for the watchdog.
    try {
      this.settle(state.type === "rejected" ? { error: state.error } : { value: state.value });
    } catch (error) {
      this.fatal(error);
    }
  }

  settle(settled) {
    if (this.finished) return;
    if (settled.error) return this.fail(this.failureFromError(settled.error, ""));
    if (this.context.typeof(settled.value) !== "string") {
      settled.value.dispose();
      return this.fail({
        code: "sandbox_error",
        message: "The sandbox's result was not JSON text (did the code replace a built-in?)",
      });
    }
    // Measured before it is copied out: an oversized result must not land in this thread's small V8 heap.
    const lengthHandle = this.context.getProp(settled.value, "length");
    const length = this.context.getNumber(lengthHandle);
    lengthHandle.dispose();
    if (length > this.limits.maxOutputBytes) {
      settled.value.dispose();
      return this.fail({
        code: "sandbox_output",
        message: `The result is at least ${length} bytes of JSON, over the limit of ${this.limits.maxOutputBytes} bytes`,
      });
    }
    const outputJson = this.context.getString(settled.value);
    settled.value.dispose();
    const bytes = Buffer.byteLength(outputJson);
    if (bytes > this.limits.maxOutputBytes) {
      return this.fail({
        code: "sandbox_output",
        message: `The result is ${bytes} bytes of JSON, over the limit of ${this.limits.maxOutputBytes} bytes`,
      });
    }
    this.finish({ ok: true, outputJson });
  }

  memoryExhausted() {
    return this.memory.buffer.byteLength + 4 * 1024 * 1024 >= this.limits.memoryBytes + this.limits.baselineBytes;
  }

  memoryFailure() {
    return {
      code: "sandbox_memory",
      message: `The code used more than its memory limit of ${Math.round(this.limits.memoryBytes / 1048576)} MB and was stopped`,
    };
  }

  timeoutFailure() {
    return {
      code: "sandbox_timeout",
      message: `The code ran longer than its time limit of ${this.limits.cpuTimeMs} ms and was stopped`,
    };
  }

  /** A WebAssembly trap (QuickJS aborting, usually because memory ran out) ends the job. */
  fatal(error) {
    if (this.interrupted) return this.fail(this.timeoutFailure());
    if (this.memoryExhausted()) return this.fail(this.memoryFailure());
    this.fail({
      code: "sandbox_error",
      message: `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`,
    });
  }

  /** Turns a QuickJS exception into a failure the user can act on. */
  failureFromError(errorHandle, where) {
    if (this.interrupted) return this.timeoutFailure();
    let dumped;
    try {
      dumped = this.context.dump(errorHandle);
      errorHandle.dispose();
    } catch {
      dumped = undefined;
    }
    const name = typeof dumped?.name === "string" ? dumped.name : "Error";
    const message = typeof dumped?.message === "string" ? dumped.message : "";
    // Out of memory, QuickJS may not even manage to build the error object.
    if (/out of memory/.test(message) || (!message && this.memoryExhausted())) return this.memoryFailure();
    // Something that is not an Error, as the prelude described it (see `failureOf` there).
    if (typeof dumped?.thrownValue === "string")
      return { code: "sandbox_error", message: clip(`${where}Uncaught ${dumped.thrownValue}`) };
    if (dumped !== undefined && (dumped === null || typeof dumped !== "object"))
      return { code: "sandbox_error", message: clip(`${where}Uncaught ${JSON.stringify(dumped) ?? String(dumped)}`) };
    if (name === "InternalError" && /stack overflow/.test(message)) {
      return { code: "sandbox_error", message: "RangeError: maximum call stack size exceeded (recursion too deep)" };
    }
    const line = typeof dumped?.stack === "string" ? /function\.js:(\d+)/.exec(dumped.stack)?.[1] : undefined;
    return {
      code: "sandbox_error",
      message: clip(`${where}${name}${message ? `: ${message}` : ""}`) + (line ? ` (line ${line})` : ""),
    };
  }

  readStdout() {
    if (!this.sandboxApi || this.interrupted) return { text: "", truncated: false };
    try {
      const stdoutFunction = this.context.getProp(this.sandboxApi, "stdout");
      const result = this.slice(() => this.context.callFunction(stdoutFunction, this.sandboxApi));
      stdoutFunction.dispose();
      if (result.error) {
        result.error.dispose();
        return { text: "", truncated: false };
      }
      const parsed = JSON.parse(this.context.getString(result.value));
      result.value.dispose();
      return parsed;
    } catch {
      return { text: "", truncated: false };
    }
  }

  fail(error) {
    this.finish({ ok: false, error });
  }

  finish(outcome) {
    if (this.finished) return;
    this.finished = true;
    const stdout = this.readStdout();
    const common = { stdout: stdout.text, stdoutTruncated: stdout.truncated, cpuTimeMs: Math.round(this.usedMs) };
    if (outcome.ok) port.postMessage({ type: "done", ok: true, outputJson: outcome.outputJson, ...common });
    else port.postMessage({ type: "done", ok: false, error: outcome.error, ...common });
    // No disposal: the host terminates this worker, which frees the whole WebAssembly heap.
  }
}

function clip(text) {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}
