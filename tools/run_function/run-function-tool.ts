import { jsonSchema, tool } from "ai";
import { BlockExecutionError } from "@/core";
import { createDecodedFetch, type GuardedFetch } from "@/net";
import { runInSandbox, type SandboxServiceHandler } from "@/sandbox";
import type { ToolProvider, ToolSet } from "../types";

export const RUN_FUNCTION_TOOL_TYPE = "run_function";

export interface RunFunctionToolDeps {
  /** Gives the code `services.fetch` through the outbound guard; without it there is none. */
  fetch?: GuardedFetch;
  /** Time limit per call. Default 5 s. */
  cpuTimeMs?: number;
}

const OPEN_PARAMETERS = { type: "object", additionalProperties: true } as const;

/**
 * `run_function` (Function-as-tool): JavaScript or Python from the agent's config runs in the
 * sandbox with the model's arguments as `services.inputs`; its return value is the tool's answer.
 * Params: `code` (required), `language` (`javascript` by default, or `python`), `description`,
 * `parameters` (a JSON Schema of the arguments).
 */
export function createRunFunctionToolProvider(deps: RunFunctionToolDeps = {}): ToolProvider {
  const decodedFetch = deps.fetch ? createDecodedFetch(deps.fetch) : undefined;
  return {
    tools: [
      {
        type: RUN_FUNCTION_TOOL_TYPE,
        label: "Function",
        description: "Runs sandboxed JavaScript or Python written in the tool's settings.",
      },
    ],
    createTools(entries, context) {
      const tools: ToolSet = {};
      for (const entry of entries) {
        const code = entry.params?.code;
        if (typeof code !== "string" || !code.trim()) {
          throw new BlockExecutionError(
            `The ${entry.name ?? RUN_FUNCTION_TOOL_TYPE} tool needs params.code (the JavaScript or Python to run)`,
            { code: "invalid_tool" },
          );
        }
        const language = entry.params?.language ?? "javascript";
        if (language !== "javascript" && language !== "python") {
          throw new BlockExecutionError(
            `The ${entry.name ?? RUN_FUNCTION_TOOL_TYPE} tool's params.language must be "javascript" or "python", not ${JSON.stringify(language)}`,
            { code: "invalid_tool" },
          );
        }
        const services: Record<string, SandboxServiceHandler> = {};
        if (decodedFetch)
          services.fetch = ([url, init], { signal }) => decodedFetch(String(url), { ...(init as object), signal });
        const parameters = (entry.params?.parameters as Record<string, unknown> | undefined) ?? OPEN_PARAMETERS;
        tools[entry.name ?? RUN_FUNCTION_TOOL_TYPE] = tool({
          description:
            typeof entry.params?.description === "string"
              ? entry.params.description
              : `Runs a ${language === "python" ? "Python" : "JavaScript"} function with the given arguments and returns its result.`,
          inputSchema: jsonSchema<Record<string, unknown>>(parameters),
          execute: async (args) => {
            const outcome = await runInSandbox({
              code,
              language,
              inputs: args,
              services,
              limits: { cpuTimeMs: deps.cpuTimeMs ?? 5_000 },
              signal: context.signal,
            });
            return outcome.stdout ? { result: outcome.result, stdout: outcome.stdout } : { result: outcome.result };
          },
        });
      }
      return tools;
    },
  };
}
