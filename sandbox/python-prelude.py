# Runs once in every Pyodide worker (sandbox/pyodide-worker.mjs) before any user code. It defines
# `_trellis_run(code, settings_json, host_call)`, which compiles and runs the user's code with
# `services` and returns a JSON envelope, and `_trellis_stdout()`. `host_call(service, args_json)`
# is the sandbox's only way out: it returns a promise of `{"ok": ..., "result" | "error"}` as JSON.
#
# The result leaves as JSON text that the host parses again, so code that replaces `json` or a
# built-in can only break its own run, never pass a non-JSON value out.

import ast
import asyncio
import builtins
import inspect
import json
import os
import sys
import traceback
import types

_USER_FILE = "function.py"
# What leaves the sandbox when the code fails; its text crosses to the host, so it is bounded.
_MAX_FAILURE_CHARS = 2000
_LARGEST_SAFE_INTEGER = 2**53 - 1


class ServiceError(Exception):
    """A host service refused or failed: `code` says why (for example `outbound_refused`)."""

    def __init__(self, message, code="service_failed", name="ServiceError"):
        super().__init__(message)
        self.code = code
        self.name = name


class _Return(BaseException):
    """How a `return` in the body of the code hands its value out (see _ReturnsRaise)."""

    def __init__(self, value):
        super().__init__()
        self.value = value


class _NotJson(Exception):
    pass


class _ReturnsRaise(ast.NodeTransformer):
    """`return value` outside any function becomes `raise __trellis_return__(value)`: the code keeps
    module semantics (globals, `import *`, `main`), and a final return still gives the result.
    Every `except` there first lets such a return through, so `except BaseException:` around a
    `return` does not swallow it."""

    def _leave(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = _leave

    def visit_Return(self, node):
        value = node.value if node.value is not None else ast.Constant(value=None)
        call = ast.Call(func=ast.Name(id="__trellis_return__", ctx=ast.Load()), args=[value], keywords=[])
        return ast.copy_location(ast.Raise(exc=call, cause=None), node)

    def visit_ExceptHandler(self, node):
        self.generic_visit(node)
        returning = ast.Call(func=ast.Name(id="__trellis_returning__", ctx=ast.Load()), args=[], keywords=[])
        node.body.insert(0, ast.copy_location(ast.If(test=returning, body=[ast.Raise(exc=None, cause=None)], orelse=[]), node))
        return node


def _returning():
    return isinstance(sys.exc_info()[1], _Return)


def _clip(text):
    if len(text) > _MAX_FAILURE_CHARS:
        return text[:_MAX_FAILURE_CHARS] + "… (" + str(len(text)) + " characters)"
    return text


def _key_path(path, key):
    return path + "[" + json.dumps(key, ensure_ascii=False) + "]"


def _describe(value):
    if isinstance(value, (set, frozenset)):
        return "a set; convert it with list(...)"
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "bytes; decode them with .decode() or convert them with list(...)"
    if inspect.isawaitable(value):
        return "an awaitable; did you forget await?"
    if isinstance(value, BaseException):
        return "an exception; return str(error) instead"
    if isinstance(value, float):
        return "not a finite number (" + repr(value) + ")"
    if isinstance(value, int):
        return "an integer beyond 2**53, which JSON numbers cannot hold exactly; return it as a string"
    if isinstance(value, type):
        return "a class"
    if callable(value):
        return "a function"
    if hasattr(value, "isoformat"):
        return "a " + type(value).__name__ + "; convert it with .isoformat()"
    return "a " + type(value).__name__


def _to_json(value, path, seen):
    """A plain copy of value made of JSON data, or _NotJson naming the first place that is not."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        if -_LARGEST_SAFE_INTEGER <= value <= _LARGEST_SAFE_INTEGER:
            return int(value)
    elif isinstance(value, float):
        if value == value and value not in (float("inf"), float("-inf")):
            return float(value)
    elif isinstance(value, (dict, list, tuple)):
        if id(value) in seen:
            raise _NotJson(path + " refers to itself (a cycle); JSON data cannot")
        seen.add(id(value))
        try:
            if isinstance(value, dict):
                copy = {}
                for key, item in value.items():
                    if isinstance(key, bool) or not isinstance(key, (str, int)):
                        raise _NotJson(path + " has the key " + _clip(repr(key)) + ", " + _describe(key) + "; keys must be strings")
                    copy[str(key)] = _to_json(item, _key_path(path, key), seen)
                return copy
            return [_to_json(item, path + "[" + str(index) + "]", seen) for index, item in enumerate(value)]
        finally:
            seen.discard(id(value))
    raise _NotJson(
        path + " is " + _describe(value)
        + "; only JSON data (dicts, lists, strings, finite numbers, booleans, None) can leave the sandbox"
    )


def _json_text(value, path):
    return json.dumps(_to_json(value, path, set()), ensure_ascii=False, allow_nan=False)


class _Console:
    """sys.stdout and sys.stderr: everything printed, up to the limit, then marked cut."""

    def __init__(self, limit):
        self.limit = limit
        self.parts = []
        self.count = 0
        self.truncated = False

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError("write() argument must be str, not " + type(text).__name__)
        if not self.truncated:
            room = self.limit - self.count
            if len(text) > room:
                self.parts.append(text[:room])
                self.count = self.limit
                self.truncated = True
            else:
                self.parts.append(text)
                self.count += len(text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    def text(self):
        return "".join(self.parts)


_console = _Console(0)


def _trellis_stdout():
    return json.dumps({"text": _console.text(), "truncated": _console.truncated}, ensure_ascii=False)


class _Done:
    """What services.outputs returns: nothing to wait for, yet `await services.outputs(...)` works too."""

    def __await__(self):
        return
        yield


class Services:
    """`services`: the block's inputs, named outputs, and the host's services (awaitable)."""

    def __init__(self, inputs, outputs, calls):
        self.inputs = inputs
        self._outputs = outputs
        for name, call in calls.items():
            setattr(self, name, call)

    def outputs(self, name, value=None):
        if not isinstance(name, str) or name == "":
            raise TypeError("services.outputs(name, value): name must be a non-empty string")
        self._outputs[name] = _to_json(value, "services.outputs(" + json.dumps(name, ensure_ascii=False) + ")", set())
        return _Done()

    def __repr__(self):
        return "<services: " + ", ".join(name for name in vars(self) if not name.startswith("_")) + ", outputs>"


def _service(name, host_call, max_chars):
    async def call(*args, **options):
        args = list(args)
        # Keyword arguments are the options object (the last argument): fetch(url, method="POST").
        if options:
            if len(args) < 2:
                args += [None] * (2 - len(args))
            base = args[1] if args[1] is not None else {}
            if not isinstance(base, dict):
                raise TypeError("services." + name + ": pass options either as a dict or as keyword arguments")
            args[1] = {**base, **options}
        while args and args[-1] is None:
            args.pop()
        text = _json_text(args, "services." + name + " arguments")
        if len(text) > max_chars:
            raise ValueError(
                "services." + name + " arguments are " + str(len(text))
                + " characters of JSON, over the limit of " + str(max_chars)
            )
        answer = json.loads(await host_call(name, text))
        if answer["ok"]:
            return answer["result"]
        error = answer["error"]
        raise ServiceError(error["message"], error["code"], error["name"])

    call.__name__ = name
    call.__qualname__ = "services." + name
    return call


def _user_line(error):
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == _USER_FILE:
            line = frame.lineno
    return line


def _failure(code, message):
    return {"ok": False, "error": {"code": code, "message": message}}


def _failure_of(error):
    if isinstance(error, KeyboardInterrupt):
        return _failure("sandbox_timeout", "The code ran longer than its time limit and was stopped")
    if isinstance(error, MemoryError):
        return _failure("sandbox_memory", "The code used more than its memory limit and was stopped")
    if isinstance(error, RecursionError):
        return _failure("sandbox_error", "RecursionError: maximum recursion depth exceeded (recursion too deep)")
    try:
        text = type(error).__name__
        detail = str(error)
        if detail:
            text += ": " + detail
        line = _user_line(error)
        return _failure("sandbox_error", _clip(text) + (" (line " + str(line) + ")" if line else ""))
    except BaseException:
        return _failure("sandbox_error", "The code raised an error that cannot be shown")


def _syntax_failure(error):
    text = type(error).__name__ + ": " + str(error.msg)
    if error.lineno:
        text += " (line " + str(error.lineno) + ")"
    return _failure("sandbox_error", _clip(text))


def _no_processes(*args, **kwargs):
    raise PermissionError("There are no processes in the sandbox: os.system, subprocess and the like are not available")


def _no_asyncio_run(main, **kwargs):
    if inspect.iscoroutine(main):
        main.close()
    raise RuntimeError("asyncio.run is not needed in the sandbox: the code already runs in an event loop; use await")


# Clear refusals for what Python offers but the sandbox cannot do. The worker's own defences
# (sandbox/python-hardening.mjs) hold whatever the code does to these names.
for _name in ("system", "popen", "fork", "forkpty", "execv", "execve", "execl", "execlp", "execvp", "execvpe",
              "spawnv", "spawnve", "spawnl", "spawnle", "posix_spawn", "posix_spawnp", "kill", "killpg"):
    if hasattr(os, _name):
        setattr(os, _name, _no_processes)
asyncio.run = _no_asyncio_run
os.environ.clear()
sys.modules.pop("js", None)
del _name


async def _trellis_run(code, settings_json, host_call):
    global _console
    settings = json.loads(settings_json)
    # Pyodide sets a few variables of its own when it starts; the code sees none.
    os.environ.clear()
    _console = _Console(settings["maxStdoutChars"])
    sys.stdout = sys.stderr = _console
    outputs = {}
    calls = {name: _service(name, host_call, settings["maxServiceCallChars"]) for name in settings["serviceNames"]}
    services = Services(settings["inputs"], outputs, calls)

    try:
        parsed = compile(code, _USER_FILE, "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
        tree = _ReturnsRaise().visit(parsed)
        ast.fix_missing_locations(tree)
        compiled = compile(tree, _USER_FILE, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError as error:
        return json.dumps(_syntax_failure(error), ensure_ascii=False)

    module = types.ModuleType("__trellis_function__")
    namespace = module.__dict__
    namespace.update(
        {"__builtins__": builtins, "__file__": _USER_FILE, "services": services, "ServiceError": ServiceError,
         "__trellis_return__": _Return, "__trellis_returning__": _returning}
    )
    result = None
    try:
        try:
            running = eval(compiled, namespace)
            if inspect.iscoroutine(running):
                await running
            main = namespace.get("main")
            if callable(main):
                result = main()
                if inspect.isawaitable(result):
                    result = await result
        except _Return as returned:
            result = returned.value
        output = json.dumps(
            {"result": _to_json(result, "result", set()), "outputs": outputs}, ensure_ascii=False, allow_nan=False
        )
    except _NotJson as error:
        return json.dumps(_failure("sandbox_error", _clip(str(error))), ensure_ascii=False)
    except BaseException as error:
        return json.dumps(_failure_of(error), ensure_ascii=False)
    if len(output) > settings["maxOutputBytes"]:
        return json.dumps(
            _failure(
                "sandbox_output",
                "The result is at least " + str(len(output)) + " bytes of JSON, over the limit of "
                + str(settings["maxOutputBytes"]) + " bytes",
            )
        )
    return json.dumps({"ok": True, "output": output}, ensure_ascii=False)
