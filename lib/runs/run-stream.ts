import "server-only";
import type { RunEventRepository } from "@/lib/db";
import { formatSse, SSE_HEADERS, SSE_HEARTBEAT, SSE_QUEUE_LIMIT_BYTES, sseQueuingStrategy } from "@/lib/http/sse";
import { isTerminalEvent, type RunEvent, type SequencedRunEvent } from "@/contract";
import type { RunChannel } from "./run-channel";
import type { RunService } from "./run-service";

const HEARTBEAT_MS = 15_000;
/** A stream following a run from storage re-reads at least this often, in case a signal was lost. */
const STORAGE_POLL_MS = 1_000;
/** Events read from storage at a time: a long run is replayed page by page, never whole. */
const STORAGE_PAGE = 1_000;

export interface RunEventStreamOptions {
  runId: string;
  afterSeq: number;
  runs: Pick<RunService, "liveRun" | "nextSignal">;
  events: Pick<RunEventRepository, "listAfter">;
  signal?: AbortSignal;
  /** The most held for a client that does not keep up; SSE_QUEUE_LIMIT_BYTES unless given. */
  maxQueuedBytes?: number;
  /**
   * Rewrites each event for this reader (the public chat sees less than a member), or leaves it
   * out with null. An event left out still counts: the stream ends at the run's last event.
   */
  present?: (event: RunEvent) => { event: string; data: unknown } | null;
}

type Controller = ReadableStreamDefaultController<Uint8Array>;

/**
 * Room in the stream's queue: a stream that filled it waits until the client has read half of
 * it, so it goes back to storage once per half-queue rather than once per event read.
 */
class QueueRoom {
  private waiter: (() => void) | undefined;

  constructor(private readonly limitBytes: number) {}

  private roomy(controller: Controller): boolean {
    return (controller.desiredSize ?? 0) >= this.limitBytes / 2;
  }

  wait(controller: Controller): Promise<void> {
    if (this.roomy(controller)) return Promise.resolve();
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Called as the client reads (the stream's pull). */
  check(controller: Controller): void {
    if (!this.waiter || !this.roomy(controller)) return;
    const wake = this.waiter;
    this.waiter = undefined;
    wake();
  }
}

/**
 * A run's event stream as SSE: events after `afterSeq`, then live ones until the run ends. A run
 * this process executes is followed from its channel (its recent events are in memory, older ones
 * are read from storage first); anything else (a finished run, a run another process executes, a
 * paused one) from storage, page by page, woken by the run bus when new events are stored. A
 * client that stops reading makes the stream stop taking events once it holds maxQueuedBytes; it
 * reads them from storage when the client catches up, so nothing is lost and memory stays bounded.
 * Closing the response only unsubscribes: the run goes on.
 */
export function runEventStream(options: RunEventStreamOptions): Response {
  const limitBytes = options.maxQueuedBytes ?? SSE_QUEUE_LIMIT_BYTES;
  const room = new QueueRoom(limitBytes);
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        stop = follow(controller, options, room);
      },
      pull(controller) {
        room.check(controller);
      },
      cancel() {
        stop();
      },
    },
    sseQueuingStrategy(limitBytes),
  );
  return new Response(stream, { headers: SSE_HEADERS });
}

/** Follows the run into the stream until the run ends or the client leaves; returns what stops it. */
function follow(controller: Controller, options: RunEventStreamOptions, room: QueueRoom): () => void {
  const { runId, runs, events } = options;
  let closed = false;
  /** The queue is full: events are not taken until the client has read some. */
  let behind = false;
  let lastSent = options.afterSeq;
  let closedNow!: () => void;
  const whenClosed = new Promise<undefined>((resolve) => (closedNow = () => resolve(undefined)));
  const untilClosed = <T>(promise: Promise<T>): Promise<T | undefined> => Promise.race([promise, whenClosed]);
  const heartbeat = setInterval(
    () => !closed && (controller.desiredSize ?? 0) > 0 && controller.enqueue(SSE_HEARTBEAT),
    HEARTBEAT_MS,
  );
  const stop = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    closedNow();
  };
  const close = () => {
    if (closed) return;
    stop();
    try {
      controller.close();
    } catch {
      // already closed by the client
    }
  };
  const send = (item: SequencedRunEvent) => {
    if (closed || behind || item.seq <= lastSent) return;
    lastSent = item.seq;
    const shown = options.present ? options.present(item.event) : { event: item.event.type, data: item.event };
    if (shown) controller.enqueue(formatSse({ id: item.seq, ...shown }));
    if (isTerminalEvent(item.event)) close();
    else if ((controller.desiredSize ?? 0) <= 0) behind = true;
  };

  const followLive = async (channel: RunChannel) => {
    // What the channel no longer holds is in storage.
    while (!closed && !behind && lastSent < channel.firstSeq - 1) {
      const before = lastSent;
      const page = await untilClosed(events.listAfter(runId, lastSent, STORAGE_PAGE));
      for (const item of page ?? []) if (item.seq < channel.firstSeq) send(item);
      // Nothing stored there (its write failed): go on from what the channel holds rather than wait for it.
      if (lastSent === before) break;
    }
    if (closed || behind) return;
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const unsubscribe = channel.subscribe(
      lastSent,
      (item) => {
        send(item);
        if (closed || behind) wake();
      },
      () => wake(),
    );
    if (channel.ended && !behind) close();
    await untilClosed(woken);
    unsubscribe();
  };

  const followStorage = async () => {
    const signal = runs.nextSignal(runId, STORAGE_POLL_MS);
    const page = (await untilClosed(events.listAfter(runId, lastSent, STORAGE_PAGE))) ?? [];
    for (const item of page) send(item);
    // A full page may have more behind it, to send once the client has room.
    if (!closed && !behind && page.length < STORAGE_PAGE) await untilClosed(signal.promise);
    signal.cancel();
  };

  options.signal?.addEventListener("abort", close, { once: true });
  void (async () => {
    while (!closed) {
      if (behind) {
        await untilClosed(room.wait(controller));
        behind = false;
        continue;
      }
      const live = runs.liveRun(runId);
      // A paused attempt has handed over: the run goes on in another attempt, followed from storage.
      if (live && !live.channel.handedOver) await followLive(live.channel);
      else await followStorage();
    }
  })().catch((error: unknown) => {
    if (closed) return;
    stop();
    controller.error(error);
  });
  return stop;
}
