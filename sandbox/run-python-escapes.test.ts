import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInSandbox } from "./run-in-sandbox";
import { SandboxGate } from "./sandbox-gate";

/**
 * Every way out of the Python sandbox that Pyodide offers, tried: each is refused or inert, and a
 * marker file or a listening socket on the host proves that nothing happened there.
 */

let scratch: string;
let marker: string;
let listener: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), "trellis-python-escape-"));
  marker = path.join(scratch, "escaped");
  listener = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
});

afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await new Promise((resolve) => listener.close(resolve));
});

const shared = new SandboxGate({ concurrency: 2, memoryMb: 4096 });

/** Runs the attempt and returns what the code reports, or the failure's message when the run itself failed. */
async function attempt(code: string): Promise<unknown> {
  try {
    return (await runInSandbox({ gate: shared, language: "python", code, limits: { cpuTimeMs: 10_000 } })).result;
  } catch (error) {
    return { failed: (error as Error).message };
  }
}

/** Python that runs `body` and returns what it raised, or "no error" with what it got. */
const tryIt = (body: string) => `
try:
    got = ${body}
    return {"error": None, "got": repr(got)[:200]}
except BaseException as error:
    return {"error": type(error).__name__, "message": str(error)[:300]}`;

describe("the Python sandbox has no way to the host", () => {
  it("runs no process: os.system refuses, and the interpreter's own system() runs nothing", async () => {
    expect(await attempt(tryIt(`__import__("os").system("touch ${marker}")`))).toMatchObject({
      error: "PermissionError",
      message: expect.stringContaining("There are no processes in the sandbox"),
    });
    // Below os.system: Emscripten's system() is handed a child_process that starts nothing (status 127, as for a missing command).
    expect(await attempt(tryIt(`__import__("posix").system("touch ${marker}")`))).toEqual({
      error: null,
      got: String(127 << 8),
    });
    expect(await attempt(tryIt(`__import__("subprocess").run(["touch", "${marker}"])`))).toMatchObject({
      error: expect.any(String),
    });
    expect(existsSync(marker)).toBe(false);
  }, 120_000);

  it("sees no host file: open('/etc/passwd') fails, and its scratch files are gone in the next run", async () => {
    expect(await attempt(tryIt(`open("/etc/passwd").read()`))).toMatchObject({ error: "FileNotFoundError" });
    expect(
      await attempt(tryIt(`open(${JSON.stringify(path.join(process.cwd(), "package.json"))}).read()`)),
    ).toMatchObject({
      error: "FileNotFoundError",
    });
    const listing = (await attempt(`import os\nreturn sorted(os.listdir("/"))`)) as string[];
    expect(listing).not.toContain("work");
    expect(listing).not.toContain("etc");
    expect(await attempt(`open("/tmp/note.txt", "w").write("kept?")\nreturn open("/tmp/note.txt").read()`)).toBe(
      "kept?",
    );
    expect(await attempt(tryIt(`open("/tmp/note.txt").read()`))).toMatchObject({ error: "FileNotFoundError" });
  }, 120_000);

  it("reads no environment variable of the server", async () => {
    process.env.TRELLIS_PYTHON_ESCAPE_SECRET = "sk-never-seen";
    try {
      const seen = (await attempt(
        `import os, posix\nreturn {"environ": dict(os.environ), "posix": {k.decode(): v.decode() for k, v in posix.environ.items()}}`,
      )) as { environ: Record<string, string>; posix: Record<string, string> };
      expect(seen.environ).toEqual({});
      expect(JSON.stringify(seen.posix)).not.toContain("sk-never-seen");
      expect(Object.keys(seen.posix)).not.toContain("PATH_TO_NODE");
    } finally {
      delete process.env.TRELLIS_PYTHON_ESCAPE_SECRET;
    }
  }, 120_000);

  it("opens no socket: a connection and a listening server are refused, and the host's listener sees nothing", async () => {
    expect(
      await attempt(tryIt(`__import__("socket").create_connection(("127.0.0.1", ${port}), timeout=2).recv(10)`)),
    ).toMatchObject({ error: expect.any(String) });
    expect(
      await attempt(
        tryIt(`__import__("urllib.request").request.urlopen("http://127.0.0.1:${port}/", timeout=2).read()`),
      ),
    ).toMatchObject({ error: expect.any(String) });
    expect(
      await attempt(
        tryIt(`(lambda s: (s.bind(("127.0.0.1", 0)), s.listen(1), s.getsockname()))(__import__("socket").socket())`),
      ),
    ).toMatchObject({ error: expect.any(String) });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(connections).toBe(0);
  }, 120_000);

  it("finds nothing of the host in `js` and cannot import pyodide_js", async () => {
    expect(await attempt(`import js\nreturn list(js.object_keys())`)).toEqual([]);
    expect(await attempt(tryIt(`__import__("js").process`))).toMatchObject({ error: "AttributeError" });
    expect(await attempt(tryIt(`__import__("pyodide_js")`))).toMatchObject({ error: "ModuleNotFoundError" });
    expect(await attempt(tryIt(`__import__("pyodide.code").code.run_js("process.pid")`))).toMatchObject({
      error: expect.any(String),
    });
    expect(
      await attempt(tryIt(`await __import__("pyodide.http").http.pyfetch("http://127.0.0.1:${port}/")`)),
    ).toMatchObject({ error: expect.any(String) });
    expect(connections).toBe(0);
  }, 120_000);

  it("makes no code from text through a JavaScript object: every function's constructor refuses", async () => {
    const result = await attempt(`
from pyodide.ffi import to_js, create_proxy
tries = {
    "array": lambda: to_js([]).constructor.constructor("return process")(),
    "object": lambda: to_js({"a": 1}).constructor.constructor("return globalThis")(),
    "function": lambda: create_proxy(lambda: 1).constructor.constructor("return globalThis")(),
}
out = {}
for name, go in tries.items():
    try:
        out[name] = "reached " + repr(go())[:80]
    except BaseException as error:
        out[name] = type(error).__name__ + ": " + str(error)[:120]
return out`);
    for (const outcome of Object.values(result as Record<string, string>)) {
      expect(outcome).not.toMatch(/^reached/);
      expect(outcome).toContain("is not available in the sandbox");
    }
  }, 120_000);

  it("leaves no JavaScript object in reach of Python that leads to the host (sys.modules and gc tricks)", async () => {
    const result = (await attempt(`
import gc, sys
from pyodide.ffi import JsProxy
found = {}
def look(value, where):
    if isinstance(value, JsProxy) and id(value) not in found:
        found[id(value)] = (where, value)
for name, module in list(sys.modules.items()):
    for key, value in list(getattr(module, "__dict__", {}).items()):
        look(value, name + "." + key)
for holder in gc.get_objects():
    for value in gc.get_referents(holder):
        look(value, type(holder).__name__)
escapes = []
for where, proxy in found.values():
    for name in ("process", "require", "_module", "FS", "mountNodeFS", "_api", "globalThis", "eval", "Function"):
        try:
            getattr(proxy, name)
            escapes.append(where + " has " + name)
        except BaseException:
            pass
    try:
        proxy.constructor.constructor("return globalThis")()
        escapes.append(where + " makes code from text")
    except BaseException:
        pass
return {"escapes": escapes, "looked_at": len(found), "names": sorted(set(name for name in sys.modules if name.startswith("pyodide_js")))}`)) as {
      escapes: string[];
      looked_at: number;
      names: string[];
    };
    // Pyodide's own modules hold a few (its event loop's scheduler, the package list): none leads anywhere.
    expect(result).toEqual({ escapes: [], looked_at: expect.any(Number), names: [] });
    expect(result.looked_at).toBeGreaterThan(0);
  }, 120_000);

  it("reaches nothing through ctypes: the interpreter's run-script hook has no eval to run", async () => {
    const result = await attempt(
      tryIt(
        `__import__("ctypes").CDLL(None).emscripten_run_script(b"require('fs').writeFileSync(${JSON.stringify(JSON.stringify(marker)).slice(1, -1)}, 'x')")`,
      ),
    );
    // Emscripten's run-script hook finds no eval: the worker stops, and the run fails saying so.
    expect(result).toMatchObject({ failed: "The sandbox failed: eval is not defined" });
    expect(existsSync(marker)).toBe(false);
  }, 120_000);
});
