import "server-only";
import { isTerminalEvent, type RunEvent, type SequencedRunEvent } from "@/contract";

type Listener = (item: SequencedRunEvent) => void;
type HandOverListener = () => void;

/**
 * The live side of one run's event stream: numbers events as they happen and fans them out to
 * every open stream. It keeps the events in memory while the run lives, so a subscriber that
 * joins late replays from memory and never misses or repeats one; the database copy (written in
 * batches) serves replays after the run is gone from memory.
 */
export class RunChannel {
  private readonly events: SequencedRunEvent[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly handOverListeners = new Set<HandOverListener>();
  private closed = false;
  private handedOverFlag = false;

  /** `startSeq`: events a resumed run's earlier attempts already stored; numbering goes on after them. */
  constructor(
    readonly runId: string,
    private readonly startSeq = 0,
  ) {}

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
    return this.startSeq + this.events.length;
  }

  publish(event: RunEvent): SequencedRunEvent {
    const item = { seq: this.lastSeq + 1, event };
    this.events.push(item);
    for (const listener of this.listeners) listener(item);
    if (isTerminalEvent(event)) {
      this.closed = true;
      this.listeners.clear();
    }
    return item;
  }

  /** The first sequence number this channel holds (earlier ones are in storage only). */
  get firstSeq(): number {
    return this.startSeq + 1;
  }

  /** Replays events after `afterSeq` (at least firstSeq - 1), then follows live ones; returns an unsubscribe function. */
  subscribe(afterSeq: number, listener: Listener, onHandOver?: HandOverListener): () => void {
    for (const item of this.events.slice(Math.max(0, afterSeq - this.startSeq))) listener(item);
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
