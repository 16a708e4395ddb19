import "server-only";
import type { RunEventRepository } from "@/lib/db";
import { formatSse, SSE_HEADERS, SSE_HEARTBEAT } from "@/lib/http/sse";
import { isTerminalEvent, type SequencedRunEvent } from "@/contract";
import type { RunService } from "./run-service";

const HEARTBEAT_MS = 15_000;
/** A stream following a run from storage re-reads at least this often, in case a signal was lost. */
const STORAGE_POLL_MS = 1_000;

/**
 * A run's event stream as SSE: events after `afterSeq`, then live ones until the run ends. A run
 * this process executes is followed from its channel (every event of the attempt, at once);
 * anything else (a finished run, a run another process executes, the earlier attempts of a
 * resumed run) from storage, woken by the run bus when new events are stored. Closing the
 * response only unsubscribes: the run goes on.
 */
export function runEventStream(options: { runId: string; afterSeq: number; runs: RunService; events: RunEventRepository; signal?: AbortSignal }): Response {
  const { runId, runs, events } = options;
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let lastSent = options.afterSeq;
      const cleanups: Array<() => void> = [];
      cleanup = () => cleanups.forEach((fn) => fn());
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
        if (closed || item.seq <= lastSent) return;
        lastSent = item.seq;
        controller.enqueue(formatSse({ id: item.seq, event: item.event.type, data: item.event }));
        if (isTerminalEvent(item.event)) close();
      };
      options.signal?.addEventListener("abort", close, { once: true });
      const heartbeat = setInterval(() => !closed && controller.enqueue(SSE_HEARTBEAT), HEARTBEAT_MS);
      cleanups.push(() => clearInterval(heartbeat));

      for (;;) {
        const live = runs.liveRun(runId);
        if (live) {
          // Earlier attempts' events are in storage only; the channel has this attempt's.
          if (lastSent < live.channel.firstSeq - 1)
            for (const item of await events.listAfter(runId, lastSent)) if (item.seq < live.channel.firstSeq) send(item);
          if (closed) return;
          // A paused attempt hands over: the run goes on in another attempt, followed from storage.
          let handedOver!: () => void;
          const handOver = new Promise<void>((resolve) => (handedOver = resolve));
          cleanups.push(live.channel.subscribe(lastSent, send, () => handedOver()));
          if (live.channel.ended) close();
          await handOver;
          if (closed) return;
          continue;
        }
        const wake = runs.nextSignal(runId, STORAGE_POLL_MS);
        for (const item of await events.listAfter(runId, lastSent)) send(item);
        if (closed) {
          wake.cancel();
          return;
        }
        cleanups.push(wake.cancel);
        await wake.promise;
        if (closed) return;
      }
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
