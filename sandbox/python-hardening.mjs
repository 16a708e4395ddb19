// Closes the ways from Python to the host in a Pyodide worker (sandbox/pyodide-worker.mjs).
//
// Pyodide is built to reach its host: its `js` module is the thread's globalThis, `pyodide_js` is
// its own API (which can mount host directories), any JavaScript object handed to Python leads to
// the Function constructor and from there to any code, Emscripten runs os.system() through
// child_process and opens sockets as WebSockets. In this worker none of that may work:
//
// - `js` is an empty frozen object (loadPyodide's jsglobals) and `pyodide_js` is unregistered and
//   dropped from sys.modules, so no Python object holds Pyodide's API;
// - the constructors of every kind of function refuse, and eval is gone: no JavaScript object that
//   Python can reach turns text into code;
// - Node's own doors in this thread are shut: sockets, child_process, fs and the WebSocket package
//   refuse, and process cannot load native code or other built-in modules;
// - the worker was started with an empty environment and no exec arguments (sandbox/run-worker.ts).
//
// Each of these is proven by a test that tries it (sandbox/run-python-escapes.test.ts).

const EACCES = 2;

function refusal(what) {
  const error = new Error(`${what} is not available in the sandbox`);
  error.code = "EACCES";
  return error;
}

/** What Emscripten's socket layer gets for the `ws` package: every connection and server refused. */
function refusingWebSocketModule() {
  const refuse = () => {
    // Emscripten's syscalls turn an error named ErrnoError into that errno (EACCES: PermissionError in Python).
    const error = refusal("Network access");
    error.name = "ErrnoError";
    error.errno = EACCES;
    throw error;
  };
  function WebSocket() {
    refuse();
  }
  WebSocket.Server = WebSocket;
  WebSocket.WebSocketServer = WebSocket;
  WebSocket.WebSocket = WebSocket;
  WebSocket.createWebSocketStream = refuse;
  return WebSocket;
}

function refuseFunctionsOf(target, what, except = []) {
  for (const key of Object.keys(target)) {
    if (typeof target[key] !== "function" || except.includes(key)) continue;
    const name = `${what}.${key}`;
    try {
      Object.defineProperty(target, key, {
        value: () => {
          throw refusal(name);
        },
        writable: false,
        configurable: false,
      });
    } catch {
      // A property that cannot be redefined is left as it is; the thread's other doors are closed too.
    }
  }
}

/**
 * Before Pyodide loads: the `ws` package its socket layer loads is replaced, in this thread's
 * module cache, by one that refuses. Returns the Node modules to close once Pyodide has loaded
 * (it reads its files through them while loading).
 */
export function hardenBeforeLoad(require) {
  const pyodideRequire = require("node:module").createRequire(require.resolve("pyodide/pyodide.asm.mjs"));
  const wsPath = pyodideRequire.resolve("ws");
  pyodideRequire(wsPath);
  pyodideRequire.cache[wsPath].exports = refusingWebSocketModule();
  return {
    fs: require("node:fs"),
    childProcess: require("node:child_process"),
  };
}

/** Once Pyodide has loaded and the prelude has run: closes everything listed at the top of this file. */
export function hardenAfterLoad(pyodide, node) {
  // Emscripten's sockets are WebSockets opened from this thread: every connection and server is refused (PermissionError).
  const { FS, SOCKFS } = pyodide._module;
  const refuseSocket = () => {
    throw new FS.ErrnoError(EACCES);
  };
  for (const key of ["createPeer", "connect", "listen", "accept"]) {
    if (typeof SOCKFS?.websocket_sock_ops?.[key] === "function") SOCKFS.websocket_sock_ops[key] = refuseSocket;
  }
  pyodide.unregisterJsModule("pyodide_js");
  // Should Python ever get hold of the API object, it leads to nothing of the interpreter's insides.
  for (const key of ["_module", "_api", "FS", "PATH", "ERRNO_CODES", "mountNodeFS", "mountNativeFS", "useNodeSockFS"]) {
    try {
      delete pyodide[key];
    } catch {
      // A read-only member stays; Python cannot reach this object anyway.
    }
  }
  pyodide.runPython(
    `import sys
for _name in [name for name in sys.modules if name == "pyodide_js" or name.startswith("pyodide_js.")]:
    del sys.modules[_name]
del _name`,
  );

  const childProcess = node.childProcess;
  // Emscripten's system() reads the status of spawnSync: 127, as for a command that was not found.
  const inertSpawnSync = () => ({ pid: 0, status: 127, signal: null, output: [null, "", ""], stdout: "", stderr: "" });
  Object.defineProperty(childProcess, "spawnSync", { value: inertSpawnSync, writable: false, configurable: false });
  refuseFunctionsOf(childProcess, "child_process", ["spawnSync"]);
  refuseFunctionsOf(node.fs, "fs");
  if (node.fs.promises) refuseFunctionsOf(node.fs.promises, "fs.promises");
  for (const key of ["binding", "_linkedBinding", "dlopen", "getBuiltinModule", "kill", "chdir", "setuid", "setgid"]) {
    if (typeof process[key] !== "function") continue;
    Object.defineProperty(process, key, {
      value: () => {
        throw refusal(`process.${key}`);
      },
      writable: false,
      configurable: false,
    });
  }
  for (const key of ["require", "eval", "fetch", "WebSocket", "EventSource", "XMLHttpRequest", "module", "exports"]) {
    try {
      delete globalThis[key];
    } catch {
      globalThis[key] = undefined;
    }
  }

  // No function's constructor makes code from text: `f.constructor.constructor("return process")()`
  // is how a JavaScript object handed to Python would otherwise reach everything.
  const refusingConstructor = function Function() {
    throw refusal("Making code from text");
  };
  const functionKinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const kind of functionKinds) {
    const prototype = Object.getPrototypeOf(kind);
    Object.defineProperty(prototype, "constructor", {
      value: refusingConstructor,
      writable: false,
      configurable: false,
    });
  }
  // A stack-trace hook would be handed the frames of whatever code throws next.
  Object.defineProperty(Error, "prepareStackTrace", { value: undefined, writable: false, configurable: false });
}
