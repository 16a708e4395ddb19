import type { ServerResponse } from "node:http";
import type { ParsedLlmRequest, ScriptedUsage, WireReply } from "./scripted-response";
import { breakConnection, contentText, pause, writeSse } from "./wire-helpers";

/** OpenAI Chat Completions (`POST /v1/chat/completions`), streaming and not. */

export function parseOpenAiRequest(body: any): ParsedLlmRequest {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  const system: string[] = [];
  const user: string[] = [];
  const all: string[] = [];
  for (const message of messages) {
    const text = contentText(message.content);
    if (message.role === "system" || message.role === "developer") system.push(text);
    if (message.role === "user") user.push(text);
    if (text) all.push(text);
    for (const call of message.tool_calls ?? []) all.push(String(call.function?.arguments ?? ""));
  }
  const format = body?.response_format;
  return {
    protocol: "openai",
    model: String(body?.model ?? ""),
    stream: body?.stream === true,
    systemText: system.join("\n"),
    userTexts: user,
    allText: all.join("\n"),
    jsonSchema:
      format?.type === "json_schema" ? format.json_schema?.schema : format?.type === "json_object" ? {} : undefined,
    toolNames: (body?.tools ?? []).map((tool: any) => String(tool.function?.name ?? "")),
    endsWithToolResult: messages.at(-1)?.role === "tool",
    reasoningRequested: typeof body?.reasoning_effort === "string" && body.reasoning_effort !== "none",
    ...forcedTool(body),
  };
}

function forcedTool(body: any): Pick<ParsedLlmRequest, "forcedTool"> {
  const choice = body?.tool_choice;
  const tools: any[] = body?.tools ?? [];
  const name =
    choice?.type === "function" ? choice.function?.name : choice === "required" ? tools[0]?.function?.name : undefined;
  const tool = tools.find((each) => each.function?.name === name);
  return tool ? { forcedTool: { name, parameters: tool.function.parameters } } : {};
}

function usageJson(usage: ScriptedUsage) {
  return {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
    prompt_tokens_details: { cached_tokens: usage.cachedPrompt ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
  };
}

const FINISH = { stop: "stop", length: "length", "tool-calls": "tool_calls" } as const;

export function writeOpenAiJson(response: ServerResponse, reply: WireReply): void {
  const message: Record<string, unknown> = { role: "assistant", content: reply.text || null };
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  const body: Record<string, unknown> = {
    id: reply.id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
    choices: [{ index: 0, message, finish_reason: FINISH[reply.finishReason] }],
  };
  if (reply.usage) body.usage = usageJson(reply.usage);
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

export async function writeOpenAiStream(
  response: ServerResponse,
  reply: WireReply,
  options: { breakAfterText?: boolean; stallAfterText?: boolean } = {},
): Promise<void> {
  const base = {
    id: reply.id,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
  };
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({ ...base, choices, ...extra });
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  writeSse(response, chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]));
  for (const text of reply.chunks) {
    await pause(reply.delayMs);
    if (response.destroyed) return;
    writeSse(response, chunk([{ index: 0, delta: { content: text }, finish_reason: null }]));
  }
  // A stalled stream: the text so far, then nothing until the client gives up.
  if (options.stallAfterText) return;
  if (options.breakAfterText) {
    await breakConnection(response);
    return;
  }
  reply.toolCalls.forEach((call, index) => {
    writeSse(
      response,
      chunk([
        {
          index: 0,
          delta: {
            tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }],
          },
          finish_reason: null,
        },
      ]),
    );
    writeSse(
      response,
      chunk([
        { index: 0, delta: { tool_calls: [{ index, function: { arguments: call.arguments } }] }, finish_reason: null },
      ]),
    );
  });
  writeSse(response, chunk([{ index: 0, delta: {}, finish_reason: FINISH[reply.finishReason] }]));
  if (reply.usage) writeSse(response, chunk([], { usage: usageJson(reply.usage) }));
  response.write("data: [DONE]\n\n");
  response.end();
}

export function writeOpenAiError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string>,
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(
    JSON.stringify({
      error: { message, type: status === 429 ? "rate_limit_exceeded" : "server_error", code: String(status) },
    }),
  );
}
