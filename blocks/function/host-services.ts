import type { BlockBudget, ChildSpan, ChildSpanOptions } from "@/executor";
import type { SimulationSource, Usage } from "@/contract";
import { createDecodedFetch, type DecodedFetchInit, type DecodedFetchResponse, type GuardedFetch } from "@/net";

/**
 * The host services a Function block's code reaches as `services.agent` and `services.fetch`
 * (the flow-services proposal). lib/runtime supplies real ones (the provider layer, the guarded
 * fetch); a test run supplies simulated ones that have no side effects.
 */

export interface AgentServiceOptions {
  model?: string;
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
  /** A JSON Schema; the answer's fields then come back in `data`. */
  responseFormat?: unknown;
}

export interface AgentServiceAnswer {
  content: string;
  model: string;
  /** Structured output when `responseFormat` was given. */
  data?: unknown;
  usage?: Usage;
  /** Set by simulated services. */
  simulated?: boolean;
}

export type FetchServiceInit = Omit<DecodedFetchInit, "signal">;
/** `simulated` (test runs): answered from the block's sample, or with `noSample` saying none was given; never sent. */
export type FetchServiceAnswer = DecodedFetchResponse & { simulated?: SimulationSource; noSample?: string };

/** What a service call gets: the block's abort signal, and a way to open spans (model calls) under the call's span. */
export interface ServiceCall {
  signal: AbortSignal;
  startSpan(options: ChildSpanOptions): ChildSpan;
  /** The run's budget, when it has one: `services.agent` model calls are held to it like any other. */
  budget?: BlockBudget;
}

export interface FunctionHostServices {
  agent(prompt: string, options: AgentServiceOptions, call: ServiceCall): Promise<AgentServiceAnswer>;
  fetch(url: string, init: FetchServiceInit, call: ServiceCall): Promise<FetchServiceAnswer>;
}

/** `services.fetch` over the outbound guard. */
export function guardedFetchService(guardedFetch: GuardedFetch): FunctionHostServices["fetch"] {
  const decodedFetch = createDecodedFetch(guardedFetch);
  return (url, init, { signal }) => decodedFetch(url, { ...init, signal });
}

export interface SimulatedAnswers {
  /** The answer to every prompt, or a function choosing one. */
  agent?: string | ((prompt: string, options: AgentServiceOptions) => string);
  /** Canned responses by exact URL. */
  fetch?: Record<string, Partial<FetchServiceAnswer>>;
}

export interface SimulatedServices extends FunctionHostServices {
  /** Every call made, in order, for a test to look at. */
  readonly calls: Array<{ service: "agent" | "fetch"; args: unknown[] }>;
}

/**
 * Services with no side effects, for running a flow in test mode: the agent answers from the
 * canned map (or says it is simulated), fetch answers canned responses and never touches the
 * network. Answers carry `simulated: true` so nobody mistakes them for real ones.
 */
export function createSimulatedServices(answers: SimulatedAnswers = {}): SimulatedServices {
  const calls: SimulatedServices["calls"] = [];
  return {
    calls,
    async agent(prompt, options) {
      calls.push({ service: "agent", args: [prompt, options] });
      const canned = typeof answers.agent === "function" ? answers.agent(prompt, options) : answers.agent;
      const content = canned ?? `[simulated answer to: ${prompt.slice(0, 200)}]`;
      return {
        content,
        model: "simulated",
        simulated: true,
        usage: { tokens: { prompt: 0, completion: 0, total: 0 }, cost: { input: 0, output: 0, total: 0 } },
      };
    },
    async fetch(url, init) {
      calls.push({ service: "fetch", args: [url, init] });
      const canned = answers.fetch?.[url];
      if (canned)
        return {
          status: canned.status ?? 200,
          ok: (canned.status ?? 200) < 300,
          headers: canned.headers ?? {},
          body: canned.body ?? null,
        };
      return { status: 200, ok: true, headers: {}, body: { simulated: true, url, method: init.method ?? "GET" } };
    },
  };
}
