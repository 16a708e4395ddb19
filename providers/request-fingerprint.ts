import { createHash } from "node:crypto";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";

/**
 * What a model call asked, in three digests, so that a replay can tell whether a recorded answer
 * answers the call it is about to make, and say which part changed when it does not.
 */
export interface RequestFingerprint {
  prompt: string;
  tools: string;
  settings: string;
}

const PART_NAMES: Record<keyof RequestFingerprint, string> = {
  prompt: "prompt",
  tools: "tools",
  settings: "model settings",
};

/**
 * JSON with every object's keys sorted: recorded tool results come back from storage (jsonb) with
 * their keys in another order than the tool returned them, which asks the same thing.
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

function digest(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("base64url").slice(0, 22);
}

export function requestFingerprint(params: LanguageModelV4CallOptions): RequestFingerprint {
  // The signal and headers are how the call is made, not what it asks.
  const {
    prompt,
    tools,
    toolChoice,
    abortSignal: _signal,
    headers: _headers,
    includeRawChunks: _raw,
    ...settings
  } = params;
  return { prompt: digest(prompt), tools: digest({ tools, toolChoice }), settings: digest(settings) };
}

/** The parts of the request that differ, named for people ("prompt", "tools", "model settings"). */
export function whatDiffers(recorded: RequestFingerprint, asked: RequestFingerprint): string[] {
  return (Object.keys(PART_NAMES) as Array<keyof RequestFingerprint>)
    .filter((part) => recorded[part] !== asked[part])
    .map((part) => PART_NAMES[part]);
}
