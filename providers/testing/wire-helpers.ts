import type { ServerResponse } from "node:http";

export function writeSse(response: ServerResponse, data: unknown, event?: string): void {
  if (response.destroyed) return;
  response.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
}

export function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** Text of a message `content` in any of the three protocols' shapes. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: any) => {
      if (typeof part === "string") return part;
      if (typeof part?.text === "string") return part.text;
      if (part?.type === "tool_result") return contentText(part.content);
      if (part?.type === "tool_use") return JSON.stringify(part.input ?? {});
      if (part?.functionCall) return JSON.stringify(part.functionCall.args ?? {});
      if (part?.functionResponse) return JSON.stringify(part.functionResponse.response ?? {});
      return "";
    })
    .filter(Boolean)
    .join("\n");
}

/** Resets the connection mid-answer, once what was written so far has reached the client. */
export async function breakConnection(response: ServerResponse): Promise<void> {
  await new Promise<void>((resolve) => response.write("", () => resolve()));
  await pause(20);
  response.socket?.destroy();
}
