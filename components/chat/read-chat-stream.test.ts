import { describe, expect, it } from "vitest";
import type { ChatStreamEvent } from "@/contract";
import { readChatStream } from "./read-chat-stream";

function streamOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

describe("readChatStream", () => {
  it("hands over each event as it is complete, however the bytes are split, skipping keep-alives", async () => {
    const text =
      'id: 1\nevent: run.started\ndata: {"type":"run.started","runId":"r","conversationId":"c","startedAt":"t"}\n\n' +
      ": keep-alive\n\n" +
      'id: 3\nevent: block.delta\ndata: {"type":"block.delta","runId":"r","spanId":"s","text":"Hé"}\n\n' +
      'id: 9\nevent: run.completed\ndata: {"type":"run.completed","runId":"r","reply":"Hé"}\n\n';
    const events: ChatStreamEvent[] = [];
    await readChatStream(streamOf([text.slice(0, 50), text.slice(50, 51), text.slice(51)]), (event) =>
      events.push(event),
    );
    expect(events.map((event) => event.type)).toEqual(["run.started", "block.delta", "run.completed"]);
    expect(events[1]).toMatchObject({ text: "Hé" });
  });
});
