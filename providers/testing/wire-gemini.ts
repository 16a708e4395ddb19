import type { ServerResponse } from "node:http";
import type { ParsedLlmRequest, ScriptedUsage, WireReply } from "./scripted-response";
import { breakConnection, contentText, pause, writeSse } from "./wire-helpers";

/** Gemini `models/<model>:generateContent` and `:streamGenerateContent?alt=sse`. */

export function parseGeminiRequest(body: any, model: string, stream: boolean): ParsedLlmRequest {
  const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
  const systemText = contentText(body?.systemInstruction?.parts);
  const user: string[] = [];
  const all: string[] = systemText ? [systemText] : [];
  for (const message of contents) {
    const text = contentText(message.parts);
    const isToolResult = (message.parts ?? []).some((part: any) => part?.functionResponse);
    if (message.role === "user" && !isToolResult) user.push(text);
    if (text) all.push(text);
  }
  const last = contents.at(-1);
  const config = body?.generationConfig ?? {};
  return {
    protocol: "gemini",
    model,
    stream,
    systemText,
    userTexts: user,
    allText: all.join("\n"),
    jsonSchema:
      config.responseMimeType === "application/json"
        ? (config.responseJsonSchema ?? config.responseSchema ?? {})
        : undefined,
    toolNames: (body?.tools ?? []).flatMap((tool: any) =>
      (tool.functionDeclarations ?? []).map((declaration: any) => String(declaration.name)),
    ),
    endsWithToolResult: (last?.parts ?? []).some((part: any) => part?.functionResponse),
    reasoningRequested: Boolean(body?.generationConfig?.thinkingConfig?.thinkingBudget),
    ...forcedTool(body),
  };
}

function forcedTool(body: any): Pick<ParsedLlmRequest, "forcedTool"> {
  const calling = body?.toolConfig?.functionCallingConfig;
  if (calling?.mode !== "ANY") return {};
  const declarations: any[] = (body?.tools ?? []).flatMap((tool: any) => tool.functionDeclarations ?? []);
  const name = calling.allowedFunctionNames?.[0] ?? declarations[0]?.name;
  const declaration = declarations.find((each) => each.name === name);
  return declaration
    ? { forcedTool: { name, parameters: declaration.parameters ?? declaration.parametersJsonSchema } }
    : {};
}

/** Gemini's prompt count includes cached tokens; its candidates count excludes thoughts. */
function usageJson(usage: ScriptedUsage) {
  const reasoning = usage.reasoning ?? 0;
  const metadata: Record<string, number> = {
    promptTokenCount: usage.prompt,
    candidatesTokenCount: usage.completion - reasoning,
    totalTokenCount: usage.prompt + usage.completion,
  };
  if (usage.cachedPrompt) metadata.cachedContentTokenCount = usage.cachedPrompt;
  if (reasoning) metadata.thoughtsTokenCount = reasoning;
  return metadata;
}

const FINISH = { stop: "STOP", length: "MAX_TOKENS", "tool-calls": "STOP" } as const;

function candidate(parts: unknown[], finish?: string) {
  return { content: { parts, role: "model" }, index: 0, ...(finish ? { finishReason: finish } : {}) };
}

function toolParts(reply: WireReply) {
  return reply.toolCalls.map((call) => ({ functionCall: { name: call.name, args: JSON.parse(call.arguments) } }));
}

export function writeGeminiJson(response: ServerResponse, reply: WireReply): void {
  const parts: unknown[] = reply.text ? [{ text: reply.text }] : [];
  parts.push(...toolParts(reply));
  const body: Record<string, unknown> = {
    candidates: [candidate(parts, FINISH[reply.finishReason])],
    modelVersion: reply.model,
  };
  if (reply.usage) body.usageMetadata = usageJson(reply.usage);
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

export async function writeGeminiStream(
  response: ServerResponse,
  reply: WireReply,
  options: { breakAfterText?: boolean; stallAfterText?: boolean } = {},
): Promise<void> {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const text of reply.chunks) {
    await pause(reply.delayMs);
    if (response.destroyed) return;
    writeSse(response, { candidates: [candidate([{ text }])], modelVersion: reply.model });
  }
  // A stalled stream: the text so far, then nothing until the client gives up.
  if (options.stallAfterText) return;
  if (options.breakAfterText) {
    await breakConnection(response);
    return;
  }
  const last: Record<string, unknown> = {
    candidates: [candidate(toolParts(reply), FINISH[reply.finishReason])],
    modelVersion: reply.model,
  };
  if (reply.usage) last.usageMetadata = usageJson(reply.usage);
  writeSse(response, last);
  response.end();
}

export function writeGeminiError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string>,
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  const statusName =
    status === 429 ? "RESOURCE_EXHAUSTED" : status === 401 || status === 403 ? "PERMISSION_DENIED" : "INTERNAL";
  response.end(JSON.stringify({ error: { code: status, message, status: statusName } }));
}
