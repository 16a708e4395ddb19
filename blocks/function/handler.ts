import "server-only";
import { z } from "zod";
import {
  BlockExecutionError,
  recordedCall,
  replayedUsage,
  type BlockHandler,
  type HandlerContext,
  addUsage,
} from "@/executor";
import { RESERVED_NAME_MESSAGE, reservedKeysOf, type Usage } from "@/contract";
import { redactHeaders } from "@/net";
import {
  capSandboxLimits,
  processSandboxGate,
  runInSandbox,
  sandboxSettings,
  type SandboxGate,
  type SandboxLimits,
  type SandboxOutcome,
  type SandboxServiceHandler,
  type SandboxSettings,
} from "@/sandbox";
import type { FunctionConfig } from "./definition";
import type { FunctionHostServices } from "./host-services";
import { sandboxReport, waitingNotice, withSandboxReport } from "./sandbox-report";

export interface FunctionHandlerDeps {
  /**
   * The services for one block run: real ones in a normal run; in a test run `fetch` answers from
   * the block's sample (simulated-fetch.ts). Called once per execution with the handler's context.
   */
  services(context: HandlerContext): FunctionHostServices;
  /** Overrides for limits the config does not set (output size, console size, wall time). */
  limits?: Partial<Omit<SandboxLimits, "cpuTimeMs" | "memoryBytes">>;
  /** Where sandbox/quickjs-worker.mjs is, when a bundler moved it. */
  workerUrl?: URL;
  /** Who admits sandboxes: the process's gate unless given. */
  gate?: SandboxGate;
  /** The server's maxima for a block's time and memory limits: the process's settings unless given. */
  maxima?: Pick<SandboxSettings, "maxMemoryMb" | "maxTimeoutMs">;
}

const agentOptionsSchema = z
  .object({
    model: z.string().min(1).optional(),
    systemPrompt: z.string().optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().positive().optional(),
    responseFormat: z.unknown().optional(),
  })
  .strict();

const fetchInitSchema = z
  .object({
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.unknown().optional(),
    timeoutMs: z.number().int().min(100).max(300_000).optional(),
  })
  .strict();

function invalidCall(service: string, problem: string): BlockExecutionError {
  return new BlockExecutionError(`services.${service}: ${problem}`, { code: "invalid_service_call" });
}

function parseOptions<T>(schema: z.ZodType<T>, value: unknown, service: string, name: string): T {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${name}.${issue.path.join(".")}` : name;
  throw invalidCall(service, `${where} ${issue?.message ?? "is invalid"}`);
}

/**
 * The Function block: user JavaScript in the QuickJS sandbox or Python in the Pyodide one, with `services.agent`,
 * `services.fetch`, `services.inputs` (the block's inputs, by block id) and
 * `services.outputs(name, value)`. Model usage of `services.agent` calls is the block's usage.
 *
 * `config.code` must arrive with its references already turned into values by
 * substituteCodeReferences (see code-references.ts), not resolved as plain text.
 *
 * The block's time and memory limits are lowered to the server's maxima when they ask for more,
 * and its output's `sandbox` says so, with the time it waited for a sandbox slot.
 */
export function createFunctionHandler(deps: FunctionHandlerDeps): BlockHandler<FunctionConfig> {
  const gate = deps.gate ?? processSandboxGate();
  const maxima = deps.maxima ?? sandboxSettings();
  return async ({ config, inputs, context }) => {
    const host = deps.services(context);
    let usage: Usage | undefined;

    const agent: SandboxServiceHandler = async ([prompt, rawOptions], { signal }) => {
      if (typeof prompt !== "string" || prompt.length === 0)
        throw invalidCall("agent", "the prompt (first argument) must be a non-empty string");
      const options = parseOptions(agentOptionsSchema, rawOptions, "agent", "options");
      // A tool span for the call; the model calls it makes open as its children.
      const span = context.startSpan({ kind: "tool", name: "services.agent", input: { prompt, options } });
      try {
        // Through the block's memo: a replay answers from the recorded call (at no cost) and never reaches a model.
        const answer = await recordedCall(
          context.memo,
          "agent",
          "services.agent call",
          () =>
            host.agent(prompt, options, {
              signal,
              startSpan: (child) => span.child(child),
              ...(context.budget ? { budget: context.budget } : {}),
            }),
          {
            asked: { prompt, options },
          },
        );
        const spent = answer.usage && context.memo?.replaying ? replayedUsage(answer.usage) : answer.usage;
        if (spent) usage = usage ? addUsage(usage, spent) : spent;
        span.end({ output: { content: answer.content, model: answer.model } });
        const reply: Record<string, unknown> = {
          content: answer.content,
          model: answer.model,
          tokens: spent?.tokens ?? null,
          cost: spent?.cost ?? null,
        };
        if (answer.data !== undefined) reply.data = answer.data;
        if (answer.simulated) reply.simulated = true;
        return reply;
      } catch (error) {
        span.end({
          error: { code: (error as { code?: string }).code ?? "service_failed", message: (error as Error).message },
        });
        throw error;
      }
    };

    const fetch: SandboxServiceHandler = async ([url, rawInit], { signal }) => {
      if (typeof url !== "string" || url.length === 0)
        throw invalidCall("fetch", "the URL (first argument) must be a non-empty string");
      const init = parseOptions(fetchInitSchema, rawInit, "fetch", "init");
      const span = context.startSpan({
        kind: "tool",
        name: "services.fetch",
        input: { url, method: init.method ?? "GET", headers: redactHeaders(init.headers) },
      });
      try {
        const answer = await recordedCall(
          context.memo,
          "fetch",
          "services.fetch call",
          () => host.fetch(url, init, { signal, startSpan: (child) => span.child(child) }),
          {
            asked: { url, init },
          },
        );
        if (answer.simulated) span.markSimulated?.(answer.simulated);
        span.end({ output: { status: answer.status, ...(answer.noSample ? { noSample: answer.noSample } : {}) } });
        return answer;
      } catch (error) {
        span.end({
          error: { code: (error as { code?: string }).code ?? "service_failed", message: (error as Error).message },
        });
        throw error;
      }
    };

    const limits = capSandboxLimits(
      { cpuTimeMs: config.timeoutMs, memoryBytes: config.memoryLimitMb * 1024 * 1024 },
      maxima,
    );
    let queuedMs = 0;
    let outcome: SandboxOutcome;
    try {
      outcome = await runInSandbox({
        code: config.code,
        language: config.language,
        inputs,
        services: { agent, fetch },
        limits: { ...deps.limits, cpuTimeMs: limits.cpuTimeMs, memoryBytes: limits.memoryBytes },
        signal: context.signal,
        workerUrl: deps.workerUrl,
        gate,
        maxima,
        onQueued: ({ ahead }) => context.emitDelta(waitingNotice(ahead, gate.limits)),
        onAdmitted: (admission) => {
          queuedMs = admission.queuedMs;
        },
      });
    } catch (error) {
      throw withSandboxReport(error, config, maxima, sandboxReport(limits, queuedMs));
    }
    // Output names are keys later blocks read (`<code.outputs.name>`), where these would reach the built-in value instead.
    const reserved = reservedKeysOf(outcome.outputs)[0];
    if (reserved !== undefined) {
      throw new BlockExecutionError(
        `services.outputs("${reserved}", value): the name "${reserved}" ${RESERVED_NAME_MESSAGE}`,
        {
          code: "invalid_service_call",
          partialOutput: {
            stdout: outcome.stdout,
            sandbox: sandboxReport(limits, outcome.queuedMs, outcome.cpuTimeMs),
          },
        },
      );
    }
    const output: Record<string, unknown> = {
      result: outcome.result,
      stdout: outcome.stdout,
      outputs: outcome.outputs,
      sandbox: sandboxReport(limits, outcome.queuedMs, outcome.cpuTimeMs),
    };
    if (outcome.stdoutTruncated) output.stdoutTruncated = true;
    return usage ? { output, usage } : { output };
  };
}
