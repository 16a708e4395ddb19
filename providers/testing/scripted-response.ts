/** What the test LLM server answers, independent of the wire protocol that carries it. */

export interface ScriptedUsage {
  /** All prompt tokens, cached ones included. */
  prompt: number;
  /** All completion tokens, reasoning included. */
  completion: number;
  cachedPrompt?: number;
  cacheWrite?: number;
  reasoning?: number;
}

export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

export type ScriptedResponse =
  | {
      kind: "text";
      text: string;
      /** Reported usage; `null` reports none (to test estimation). Default: o200k_base counts. */
      usage?: ScriptedUsage | null;
      /** How the streamed text is split; default: word by word. */
      chunks?: string[];
      /** Pause between streamed chunks. */
      delayMs?: number;
      finishReason?: "stop" | "length";
    }
  | { kind: "json"; value: unknown; usage?: ScriptedUsage | null }
  | { kind: "tool-calls"; calls: ScriptedToolCall[]; text?: string; usage?: ScriptedUsage | null }
  | { kind: "error"; status: number; message?: string; headers?: Record<string, string> }
  /** Streams `text` (in chunks), then resets the connection before the end of the answer. */
  | { kind: "broken-stream"; text: string; chunks?: string[] }
  /** Streams `text` (in chunks, `delayMs` apart), then keeps the connection open and sends nothing more. */
  | { kind: "stalled-stream"; text: string; chunks?: string[]; delayMs?: number }
  /** Accepts the request and never answers (until the client gives up or the server closes). */
  | { kind: "hang" };

/** A request as the server understood it, whatever its protocol. */
export interface ParsedLlmRequest {
  protocol: "openai" | "anthropic" | "gemini";
  model: string;
  stream: boolean;
  systemText: string;
  userTexts: string[];
  /** Every text of the prompt (system, messages, tool results), one per line: what usage is counted on. */
  allText: string;
  /** The JSON Schema asked for as structured output, if any. */
  jsonSchema?: unknown;
  toolNames: string[];
  /** Whether the last message carries tool results. */
  endsWithToolResult: boolean;
  /** Whether the request asks the model to reason (OpenAI `reasoning_effort`, Anthropic `thinking`, Gemini `thinkingConfig`). */
  reasoningRequested: boolean;
  /** The tool the request makes the model call (a forced or a required tool choice: the first offered), with its parameters' JSON Schema. */
  forcedTool?: { name: string; parameters: unknown };
}

export interface RecordedRequest {
  protocol: ParsedLlmRequest["protocol"];
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  parsed: ParsedLlmRequest;
}

/** A reply ready for a wire writer. */
export interface WireReply {
  id: string;
  model: string;
  text: string;
  chunks: string[];
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  usage: ScriptedUsage | null;
  finishReason: "stop" | "length" | "tool-calls";
  delayMs: number;
}
