import "server-only";
import { isTerminalEvent, type RunEvent, type SequencedRunEvent } from "@/contract";

type Listener = (item: SequencedRunEvent) => void;
type HandOverListener = () => void;

/**
 * How much of a run's stream its channel keeps in memory once stored: a run streaming for hours
 * (or a block answering megabytes) must not grow the process. A subscriber asking for older
 * events reads them from storage. Events not yet stored are kept whatever their number, since
 * nothing else has them; the recorder writes them within a fraction of a second.
 */
export const RUN_CHANNEL_LIMITS = { events: 1_000, bytes: 4 * 1024 * 1024 };

interface Kept {
  item: SequencedRunEvent;
  /** Its JSON's length: what it costs to hold, near enough. */
  size: number;
}

/**
 * The live side of one run's event stream: numbers events as they happen and fans them out to
 * every open stream. It keeps the latest events in memory (RUN_CHANNEL_LIMITS), so a subscriber
 * that joins late replays the recent ones from memory and the rest from storage without missing
 * or repeating one; the database copy serves replays after the run is gone from memory.
 */
export class RunChannel {
  private kept: Array<Kept | undefined> = [];
  /** Index in `kept` of the oldest event still held. */
  private head = 0;
  private keptSize = 0;
  /** The size of the events not yet stored (all of them are in `kept`). */
  private unstoredSize = 0;
  private last: number;
  private storedSeq: number;
  private readonly listeners = new Set<Listener>();
  private readonly handOverListeners = new Set<HandOverListener>();
  private closed = false;
  private handedOverFlag = false;

  /** `startSeq`: events a resumed run's earlier attempts already stored; numbering goes on after them. */
  constructor(
    readonly runId: string,
    startSeq = 0,
    private readonly limits = RUN_CHANNEL_LIMITS,
  ) {
    this.last = startSeq;
    this.storedSeq = startSeq;
  }

  get ended(): boolean {
    return this.closed;
  }

  /** This attempt stopped without the run ending (it paused): later events come from another attempt, through storage. */
  get handedOver(): boolean {
    return this.handedOverFlag;
  }

  /** Ends this attempt's channel without ending the run; subscribers are told to follow the run elsewhere. */
  handOver(): void {
    if (this.closed || this.handedOverFlag) return;
    this.handedOverFlag = true;
    this.listeners.clear();
    for (const listener of this.handOverListeners) listener();
    this.handOverListeners.clear();
  }

  get lastSeq(): number {
    return this.last;
  }

  /** The first sequence number this channel still holds (earlier ones are in storage only). */
  get firstSeq(): number {
    return this.kept[this.head]?.item.seq ?? this.last + 1;
  }

  publish(event: RunEvent): SequencedRunEvent {
    this.last += 1;
    const item = { seq: this.last, event };
    const size = JSON.stringify(event).length;
    this.kept.push({ item, size });
    this.keptSize += size;
    this.unstoredSize += size;
    for (const listener of this.listeners) listener(item);
    if (isTerminalEvent(event)) {
      this.closed = true;
      this.listeners.clear();
    }
    this.trim();
    return item;
  }

  /** Events up to `seq` are stored (or their write failed for good): beyond the limits, they may leave memory. */
  stored(seq: number): void {
    const upTo = Math.min(seq, this.last);
    for (let next = this.storedSeq + 1; next <= upTo; next += 1)
      this.unstoredSize -= this.kept[this.head + (next - this.firstSeq)]?.size ?? 0;
    this.storedSeq = Math.max(this.storedSeq, seq);
    this.trim();
  }

  /** What the events not yet stored hold in memory (their JSON's length): what a stalled database makes the channel keep. */
  get unstoredBytes(): number {
    return this.unstoredSize;
  }

  private trim(): void {
    for (let first = this.kept[this.head]; first && first.item.seq <= this.storedSeq; first = this.kept[this.head]) {
      const count = this.kept.length - this.head;
      if (count <= this.limits.events && this.keptSize <= this.limits.bytes) break;
      this.keptSize -= first.size;
      this.kept[this.head] = undefined;
      this.head += 1;
    }
    // Compacted now and then rather than shifted per event, which would copy the array each time.
    if (this.head > 1_024 && this.head * 2 > this.kept.length) {
      this.kept = this.kept.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * Replays the events after `afterSeq`, then follows live ones; returns an unsubscribe function.
   * `afterSeq` must be at least firstSeq - 1: the caller reads anything older from storage first.
   */
  subscribe(afterSeq: number, listener: Listener, onHandOver?: HandOverListener): () => void {
    const from = this.head + Math.max(0, afterSeq + 1 - this.firstSeq);
    for (const entry of this.kept.slice(from)) if (entry) listener(entry.item);
    if (this.closed) return () => {};
    if (this.handedOverFlag) {
      onHandOver?.();
      return () => {};
    }
    this.listeners.add(listener);
    if (onHandOver) this.handOverListeners.add(onHandOver);
    return () => {
      this.listeners.delete(listener);
      if (onHandOver) this.handOverListeners.delete(onHandOver);
    };
  }
}
