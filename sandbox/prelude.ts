/**
 * JavaScript that runs inside QuickJS before the user's code. It is a function expression called
 * with `(host, settingsJson)`; `host.call` is the only way out of the sandbox and stays hidden in
 * this closure. It installs `console` and `services` as globals and returns `{ run, stdout }`.
 *
 * Built-ins are captured up front so that user code replacing `JSON` or `Array.isArray` cannot
 * make a non-JSON result slip through; it could only break its own run.
 */
export const SANDBOX_PRELUDE = String.raw`(function (host, settingsJson) {
  "use strict";
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const isArray = Array.isArray;
  const getPrototypeOf = Object.getPrototypeOf;
  const objectKeys = Object.keys;
  const ObjectPrototype = Object.prototype;
  const ArrayPrototype = Array.prototype;
  const hostCall = host.call;
  const settings = parse(settingsJson);
  const maxStdoutChars = settings.maxStdoutChars;
  const maxServiceCallChars = settings.maxServiceCallChars;
  const ErrorType = Error;
  const promiseThen = Promise.prototype.then;
  const apply = Reflect.apply;

  const named = [
    [Map, "a Map; convert it with Object.fromEntries(map)"],
    [Set, "a Set; convert it with Array.from(set)"],
    [WeakMap, "a WeakMap"],
    [WeakSet, "a WeakSet"],
    [Promise, "a Promise; did you forget await?"],
    [Error, "an Error; return error.message instead"],
    [RegExp, "a RegExp; return its source text instead"],
    [ArrayBuffer, "an ArrayBuffer; convert it with Array.from(new Uint8Array(buffer))"],
  ];
  const TypedArray = getPrototypeOf(Uint8Array);

  function describeKind(value) {
    for (const [type, text] of named) if (value instanceof type) return text;
    if (value instanceof TypedArray) return "a typed array; convert it with Array.from(array)";
    return null;
  }

  function fail(path, what) {
    throw new TypeError(path + " is " + what + "; only JSON data (objects, arrays, strings, finite numbers, booleans, null) can leave the sandbox");
  }

  // Returns a plain copy of value that JSON.stringify turns into the same data, or throws a
  // TypeError naming the path of the first value that is not JSON.
  function toJsonValue(value, path, ancestors) {
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number":
        if (value !== value) fail(path, "NaN");
        if (value === Infinity || value === -Infinity) fail(path, "Infinity");
        return value;
      case "bigint":
        fail(path, "a BigInt; convert it with Number(value) or String(value)");
      case "symbol":
        fail(path, "a Symbol");
      case "function":
        fail(path, "a function");
      case "undefined":
        fail(path, "undefined; use null");
    }
    if (value === null) return null;
    if (typeof value.toJSON === "function") return toJsonValue(value.toJSON(), path, ancestors);
    if (ancestors.indexOf(value) !== -1) fail(path, "a cyclic reference (it contains itself)");
    const prototype = getPrototypeOf(value);
    if (prototype !== ObjectPrototype && prototype !== ArrayPrototype && prototype !== null) {
      const kind = describeKind(value);
      if (kind) fail(path, kind);
    }
    ancestors.push(value);
    let copy;
    if (isArray(value)) {
      copy = [];
      for (let index = 0; index < value.length; index++) copy.push(toJsonValue(value[index], path + "[" + index + "]", ancestors));
    } else {
      copy = {};
      for (const key of objectKeys(value)) {
        const item = value[key];
        // JSON drops undefined properties; so do we, as users expect from JSON.stringify.
        if (item === undefined) continue;
        copy[key] = toJsonValue(item, path + "." + key, ancestors);
      }
    }
    ancestors.pop();
    return copy;
  }

  function toJsonText(value, path) {
    return stringify(toJsonValue(value, path, []));
  }

  const stdoutParts = [];
  let stdoutChars = 0;
  let stdoutTruncated = false;

  function formatValue(value) {
    if (typeof value === "string") return value;
    if (value instanceof Error) return (value.name || "Error") + ": " + value.message;
    if (typeof value === "function") return "[function " + (value.name || "anonymous") + "]";
    if (typeof value === "bigint") return String(value) + "n";
    if (typeof value === "symbol" || value === undefined) return String(value);
    try {
      const text = stringify(value);
      return text === undefined ? String(value) : text;
    } catch {
      return String(value);
    }
  }

  function writeLine(args) {
    if (stdoutTruncated) return;
    let line = "";
    for (let index = 0; index < args.length; index++) line += (index ? " " : "") + formatValue(args[index]);
    line += "\n";
    if (stdoutChars + line.length > maxStdoutChars) {
      stdoutParts.push(line.slice(0, Math.max(0, maxStdoutChars - stdoutChars)));
      stdoutTruncated = true;
      return;
    }
    stdoutChars += line.length;
    stdoutParts.push(line);
  }

  const log = (...args) => writeLine(args);
  globalThis.console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });

  // No prototype: a name like "__proto__" becomes an own key the host sees and refuses, instead of replacing the prototype unseen.
  const outputs = Object.create(null);
  function callService(service, args) {
    while (args.length && args[args.length - 1] === undefined) args.pop();
    const argsText = toJsonText(args.map((arg) => (arg === undefined ? null : arg)), "services." + service + " arguments");
    if (argsText.length > maxServiceCallChars) {
      throw new RangeError("services." + service + " arguments are " + argsText.length + " characters of JSON, over the limit of " + maxServiceCallChars);
    }
    return hostCall(service, argsText).then((resultText) => parse(resultText));
  }

  const services = {
    inputs: settings.inputs,
    outputs(name, value) {
      if (typeof name !== "string" || name.length === 0) throw new TypeError("services.outputs(name, value): name must be a non-empty string");
      outputs[name] = toJsonValue(value === undefined ? null : value, "services.outputs(" + stringify(name) + ")", []);
    },
  };
  for (const name of settings.serviceNames) services[name] = (...args) => callService(name, args);
  globalThis.services = Object.freeze(services);

  // What leaves the sandbox when the code fails. Its text crosses to the host, so it is bounded.
  const MAX_FAILURE_CHARS = 2000;
  function clip(text) {
    return text.length > MAX_FAILURE_CHARS ? text.slice(0, MAX_FAILURE_CHARS) + "… (" + text.length + " characters)" : text;
  }

  function showThrown(value) {
    if (typeof value === "string") return stringify(value);
    if (typeof value === "function") return "[function " + (value.name || "anonymous") + "]";
    if (typeof value === "bigint") return String(value) + "n";
    if (typeof value === "symbol" || value === undefined) return String(value);
    try {
      const text = stringify(value);
      if (text !== undefined) return text;
    } catch {}
    return String(value);
  }

  // An Error keeps its name, message and stack (for the line); anything else thrown (an object, a
  // string, a number, null) is shown as the value itself rather than as an unknown error.
  function failureOf(thrown) {
    try {
      if (thrown instanceof ErrorType) return { name: clip(String(thrown.name)), message: clip(String(thrown.message)), stack: clip(String(thrown.stack || "")) };
      return { thrownValue: clip(showThrown(thrown)) };
    } catch {
      return { thrownValue: "a value that cannot be shown" };
    }
  }

  return {
    run(main) {
      const finished = apply(promiseThen, main(), [(result) => stringify({ result: result === undefined ? null : toJsonValue(result, "result", []), outputs })]);
      return apply(promiseThen, finished, [
        undefined,
        (thrown) => {
          throw failureOf(thrown);
        },
      ]);
    },
    stdout() {
      return stringify({ text: stdoutParts.join(""), truncated: stdoutTruncated });
    },
  };
})`;

/**
 * Wraps user code so top-level `return` and `await` work. The code starts on the wrapper's first
 * line, so line numbers in error messages match what the user wrote.
 */
export function wrapUserCode(code: string): string {
  return `(async function () {${code}\n})`;
}
