import { TrellisError, type BlockMemo } from "@/core";

/** What a recorded call keeps: its answer as JSON and a digest of what it asked. */
interface Recorded {
  answer: unknown;
  asked?: string;
}

/** JSON with object keys sorted, so that the same request read back from storage (jsonb reorders keys) digests the same. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner) && !(inner instanceof Uint8Array)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

/** FNV-1a over the canonical JSON, two 32-bit lanes: a change detector, not a security measure (the memo is the server's own). */
function digest(value: unknown): string {
  const text = canonicalJson(value);
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x811c9dc5) >>> 0;
  }
  return `${a.toString(36)}.${b.toString(36)}`;
}

export interface RecordedCallOptions<Answer> {
  /** What the call asks (a URL and body, a query): a replay refuses a recording made for another request. */
  asked?: unknown;
  /** The answer as JSON and back (the memo is stored as JSON); the answer itself by default. */
  encode?(answer: Answer): unknown;
  decode?(stored: unknown): Answer;
}

/**
 * A call to the world made through the block's memo: an earlier attempt's answer (a durable run
 * resumed) or the replayed run's recording is given back instead of calling again. In a replay, a
 * call with no recording, or one whose request differs from the recorded one, is refused
 * `not_recorded` and never made.
 */
export async function recordedCall<Answer>(
  memo: BlockMemo | undefined,
  kind: string,
  what: string,
  call: () => Promise<Answer>,
  options: RecordedCallOptions<Answer> = {},
): Promise<Answer> {
  if (!memo) return call();
  const key = memo.next(kind);
  const kept = memo.recall(key) as Recorded | undefined;
  const asked = options.asked === undefined ? undefined : digest(options.asked);
  if (memo.replaying) {
    if (!kept) {
      throw new TrellisError(
        "not_recorded",
        `Not recorded: the replayed run made no ${what} here, so there is nothing to replay; it was not made. Run the workflow to make it.`,
      );
    }
    if (kept.asked !== undefined && asked !== undefined && kept.asked !== asked) {
      throw new TrellisError(
        "not_recorded",
        `Not recorded: this ${what} asks something else than the replayed run's did (its request changed), so there is nothing to replay; it was not made. Run the workflow to make it.`,
      );
    }
  }
  if (kept) return options.decode ? options.decode(kept.answer) : (kept.answer as Answer);
  const answer = await call();
  const stored: Recorded = {
    answer: JSON.parse(JSON.stringify((options.encode ? options.encode(answer) : answer) ?? null)) as unknown,
  };
  if (asked !== undefined) stored.asked = asked;
  await memo.remember(key, stored);
  return answer;
}
