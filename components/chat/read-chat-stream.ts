import { CHAT_STREAM_EVENT_TYPES, type ChatStreamEvent } from "@/contract";

const KNOWN: ReadonlySet<string> = new Set(CHAT_STREAM_EVENT_TYPES);

/** One SSE frame's `data:` as a chat event, or null for comments (keep-alives) and types this page does not know. */
function parseFrame(frame: string): ChatStreamEvent | null {
  const data = frame
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).replace(/^ /, ""))
    .join("\n");
  if (!data) return null;
  const event = JSON.parse(data) as ChatStreamEvent;
  return KNOWN.has(event.type) ? event : null;
}

/**
 * Reads the event stream POST /api/chat/:chatId/messages answers (fetch, since an EventSource
 * cannot POST), calling `onEvent` for each event as it arrives, however the bytes are split.
 * Resolves when the stream ends.
 */
export async function readChatStream(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ChatStreamEvent) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
    let end = buffered.indexOf("\n\n");
    while (end >= 0) {
      const event = parseFrame(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
      if (event) onEvent(event);
      end = buffered.indexOf("\n\n");
    }
  }
  const last = parseFrame(buffered.trim());
  if (last) onEvent(last);
}
