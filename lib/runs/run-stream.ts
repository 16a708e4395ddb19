import "server-only";
import type { RunEventRepository } from "@/lib/db";
import { formatSse, SSE_HEADERS, SSE_HEARTBEAT } from "@/lib/http/sse";
import { isTerminalEvent, type SequencedRunEvent } from "@/contract";
import type { LiveRun } from "./run-service";

const HEARTBEAT_MS = 15_000;

/**
 * A run's event stream as SSE: events after `afterSeq`, then live ones until the run ends. A live
 * run is served from its channel (which holds every event while it lives); a finished run, or
 * one another process ran, from storage. Closing the response only unsubscribes: the run goes on.
 */
export function runEventStream(options: {
  runId: string;
  afterSeq: number;
  live: LiveRun | undefined;
  events: RunEventRepository;
  signal?: AbortSignal;
}): Response {
  const { runId, afterSeq, live, events } = options;
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const send = (item: SequencedRunEvent) => {
        if (closed) return;
        controller.enqueue(formatSse({ id: item.seq, event: item.event.type, data: item.event }));
        if (isTerminalEvent(item.event)) close();
      };
      options.signal?.addEventListener("abort", close, { once: true });
      if (live) {
        const heartbeat = setInterval(() => !closed && controller.enqueue(SSE_HEARTBEAT), HEARTBEAT_MS);
        const unsubscribe = live.channel.subscribe(afterSeq, send);
        cleanup = () => {
          clearInterval(heartbeat);
          unsubscribe();
        };
        if (live.channel.ended) close();
        return;
      }
      for (const item of await events.listAfter(runId, afterSeq)) send(item);
      close();
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
