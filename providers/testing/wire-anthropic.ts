import type { ServerResponse } from "node:http";
import type { ParsedLlmRequest, ScriptedUsage, WireReply } from "./scripted-response";
import { breakConnection, contentText, pause, writeSse } from "./wire-helpers";

/** Anthropic Messages (`POST /v1/messages`), streaming and not. */

export function parseAnthropicRequest(body: any): ParsedLlmRequest {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const systemText = contentText(body?.system);
  const user: string[] = [];
  const all: string[] = systemText ? [systemText] : [];
  for (const message of messages) {
    const text = contentText(message.content);
    const isToolResult =
      Array.isArray(message.content) && message.content.some((part: any) => part?.type === "tool_result");
    if (message.role === "user" && !isToolResult) user.push(text);
    if (text) all.push(text);
  }
  const last = messages.at(-1);
  return {
    protocol: "anthropic",
    model: String(body?.model ?? ""),
    stream: body?.stream === true,
    systemText,
    userTexts: user,
    allText: all.join("\n"),
    jsonSchema: restoreConstraints(body?.output_format?.schema ?? body?.output_config?.format?.schema),
    toolNames: (body?.tools ?? []).map((tool: any) => String(tool.name ?? "")),
    endsWithToolResult: Array.isArray(last?.content) && last.content.some((part: any) => part?.type === "tool_result"),
    reasoningRequested: body?.thinking?.type === "enabled",
    ...forcedTool(body),
  };
}

function forcedTool(body: any): Pick<ParsedLlmRequest, "forcedTool"> {
  const choice = body?.tool_choice;
  const tools: any[] = body?.tools ?? [];
  const name = choice?.type === "tool" ? choice.name : choice?.type === "any" ? tools[0]?.name : undefined;
  const tool = tools.find((each) => each.name === name);
  return tool ? { forcedTool: { name, parameters: tool.input_schema } } : {};
}

/**
 * Anthropic's structured output takes no numeric bounds, so the AI SDK moves them into the
 * description ("minimum: 2."); put them back so default answers stay in range.
 */
function restoreConstraints(schema: any): any {
  if (typeof schema !== "object" || schema === null) return schema;
  const restored: any = Array.isArray(schema) ? schema.map(restoreConstraints) : { ...schema };
  if (!Array.isArray(schema)) {
    for (const [key, value] of Object.entries(schema))
      if (typeof value === "object") restored[key] = restoreConstraints(value);
    const description = typeof schema.description === "string" ? schema.description : "";
    for (const bound of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "minLength"]) {
      const match = new RegExp(`\\b${bound}: (-?\\d+(?:\\.\\d+)?)`).exec(description);
      if (match && restored[bound] === undefined) restored[bound] = Number(match[1]);
    }
  }
  return restored;
}

/** Anthropic reports uncached input apart from cache reads and writes; the AI SDK adds them up. */
function usageJson(usage: ScriptedUsage, output: number) {
  const cached = usage.cachedPrompt ?? 0;
  const written = usage.cacheWrite ?? 0;
  return {
    input_tokens: usage.prompt - cached - written,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: written,
    output_tokens: output,
    ...thinkingJson(usage),
  };
}

/** Thinking tokens (a part of output_tokens), as Anthropic reports them when the model thought. */
function thinkingJson(usage: ScriptedUsage | null) {
  return usage?.reasoning ? { output_tokens_details: { thinking_tokens: usage.reasoning } } : {};
}

const STOP = { stop: "end_turn", length: "max_tokens", "tool-calls": "tool_use" } as const;

export function writeAnthropicJson(response: ServerResponse, reply: WireReply): void {
  const content: unknown[] = [];
  if (reply.text) content.push({ type: "text", text: reply.text });
  for (const call of reply.toolCalls)
    content.push({ type: "tool_use", id: call.id, name: call.name, input: JSON.parse(call.arguments) });
  const body: Record<string, unknown> = {
    id: reply.id,
    type: "message",
    role: "assistant",
    model: reply.model,
    content,
    stop_reason: STOP[reply.finishReason],
    stop_sequence: null,
    usage: reply.usage ? usageJson(reply.usage, reply.usage.completion) : { input_tokens: 0, output_tokens: 0 },
  };
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

export async function writeAnthropicStream(
  response: ServerResponse,
  reply: WireReply,
  options: { breakAfterText?: boolean; stallAfterText?: boolean } = {},
): Promise<void> {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  const usage = reply.usage;
  const send = (data: { type: string } & Record<string, unknown>) => writeSse(response, data, data.type);
  send({
    type: "message_start",
    message: {
      id: reply.id,
      type: "message",
      role: "assistant",
      model: reply.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: usage ? usageJson(usage, 1) : { input_tokens: 0, output_tokens: 0 },
    },
  });
  let index = 0;
  if (reply.chunks.length > 0) {
    send({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const text of reply.chunks) {
      await pause(reply.delayMs);
      if (response.destroyed) return;
      send({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
    }
    // A stalled stream: the text so far, then nothing until the client gives up.
    if (options.stallAfterText) return;
    if (options.breakAfterText) {
      await breakConnection(response);
      return;
    }
    send({ type: "content_block_stop", index });
    index += 1;
  }
  for (const call of reply.toolCalls) {
    send({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    send({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: call.arguments } });
    send({ type: "content_block_stop", index });
    index += 1;
  }
  send({
    type: "message_delta",
    delta: { stop_reason: STOP[reply.finishReason], stop_sequence: null },
    usage: { output_tokens: usage?.completion ?? 0, ...thinkingJson(usage) },
  });
  send({ type: "message_stop" });
  response.end();
}

export function writeAnthropicError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string>,
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  const type = status === 429 ? "rate_limit_error" : status === 401 ? "authentication_error" : "api_error";
  response.end(JSON.stringify({ type: "error", error: { type, message } }));
}
