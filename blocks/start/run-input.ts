import { RESERVED_NAME_MESSAGE, reservedKeysOf } from "@/contract";
import { BlockExecutionError } from "@/executor";
import type { StartConfig } from "./definition";

type DeclaredInput = StartConfig["inputs"][number];

/** Text from a form or query string is accepted for numbers and booleans ("3", "true"). */
function coerce(input: DeclaredInput, value: unknown): unknown {
  const fail = () => {
    const got = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    return new BlockExecutionError(
      `Run input '${input.name}' must be ${input.type === "array" || input.type === "object" ? "an" : "a"} ${input.type}, got ${got}`,
      {
        code: "invalid_input",
        details: [
          {
            path: `input.${input.name}`,
            message: `must be ${input.type === "array" || input.type === "object" ? "an" : "a"} ${input.type}`,
          },
        ],
      },
    );
  };
  switch (input.type) {
    case "string":
      if (typeof value !== "string") throw fail();
      return value;
    case "number": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof number !== "number" || !Number.isFinite(number)) throw fail();
      return number;
    }
    case "boolean":
      if (value === "true" || value === "false") return value === "true";
      if (typeof value !== "boolean") throw fail();
      return value;
    case "array":
      if (!Array.isArray(value)) throw fail();
      return value;
    case "object":
      if (value === null || typeof value !== "object" || Array.isArray(value)) throw fail();
      return value;
  }
}

/**
 * The run input as the start block outputs it: each declared input checked against its type, with
 * its default when absent. A declared input with no default is required. Fields the caller sends
 * beyond the declared ones are passed on as they are. Shared by the start block and the estimate,
 * so both refuse the same input with the same message.
 */
export function checkedRunInput(config: StartConfig, runInput: Record<string, unknown>): Record<string, unknown> {
  // The API refuses these keys already; a run started another way (a tool, a trigger) must not
  // have one silently change the output's prototype either.
  const reserved = reservedKeysOf(runInput)[0];
  if (reserved !== undefined)
    throw new BlockExecutionError(`Run input '${reserved}' ${RESERVED_NAME_MESSAGE}`, { code: "invalid_input" });
  const output: Record<string, unknown> = { ...runInput };
  for (const input of config.inputs) {
    const given = Object.hasOwn(runInput, input.name) ? runInput[input.name] : undefined;
    if (given === undefined) {
      if (input.default === undefined) {
        throw new BlockExecutionError(`Run input '${input.name}' is required (it has no default)`, {
          code: "invalid_input",
          details: [{ path: `input.${input.name}`, message: "is required (it has no default)" }],
        });
      }
      output[input.name] = input.default;
      continue;
    }
    output[input.name] = coerce(input, given);
  }
  return output;
}
