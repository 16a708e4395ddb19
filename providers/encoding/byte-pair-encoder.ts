import type { TiktokenBPE } from "js-tiktoken/lite";

/**
 * A tiktoken encoder whose cost grows with its input as n log n, not n squared.
 *
 * js-tiktoken merges the byte pairs of each regex piece by rescanning the whole piece after every
 * merge: a piece of k bytes costs about k² (a 16,000-letter word took 14 s), and one word with no
 * break is one piece, so anyone who can send text could hold the event loop for minutes. This
 * encoder reads the same rank files and applies the same rule (merge the lowest-ranked adjacent
 * pair, leftmost first, until none has a rank), keeping the candidate pairs in a heap: the same
 * tokens, each merge costing log k. Its output is checked against js-tiktoken's in the tests.
 */
export class BytePairEncoder {
  private readonly ranks = new Map<string, number>();
  private bytesOfRank: Map<number, Uint8Array> | undefined;
  private readonly specialTokens: Record<string, number>;
  private readonly specialPattern: RegExp | null;
  private readonly piecePattern: RegExp;
  /** No token is longer than this many bytes: a longer candidate pair needs no look-up. */
  private longestToken = 0;
  private readonly mergedRanks = new Map<number, number>();

  /** Builds the encoder at once (about a second for o200k's 200,000 ranks, holding the event loop). */
  constructor(file: TiktokenBPE, lines: Iterable<string> = file.bpe_ranks.split("\n")) {
    for (const line of lines) this.addLine(line);
    this.specialTokens = file.special_tokens;
    const specials = Object.keys(file.special_tokens).map((token) => token.replace(/[\\^$*+?.()|[\]{}]/g, "\\$&"));
    this.specialPattern = specials.length ? new RegExp(specials.join("|"), "g") : null;
    this.piecePattern = new RegExp(file.pat_str, "gu");
  }

  /** Builds the encoder a few thousand ranks at a time, letting other work run between them. */
  static async build(file: TiktokenBPE): Promise<BytePairEncoder> {
    const encoder = new BytePairEncoder(file, []);
    let sinceYield = 0;
    for (const line of file.bpe_ranks.split("\n")) {
      const [, offsetText, ...tokens] = line.split(" ");
      const offset = Number.parseInt(offsetText ?? "", 10);
      for (let index = 0; index < tokens.length; index++) {
        encoder.addToken(tokens[index]!, offset + index);
        if (++sinceYield < BUILD_RANKS_PER_SLICE) continue;
        sinceYield = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    return encoder;
  }

  /** A rank file line, `! offset token token ...`: each token (base64) ranks offset + its place. */
  private addLine(line: string): void {
    if (!line) return;
    const [, offsetText, ...tokens] = line.split(" ");
    const offset = Number.parseInt(offsetText ?? "", 10);
    for (let index = 0; index < tokens.length; index++) this.addToken(tokens[index]!, offset + index);
  }

  private addToken(base64: string, rank: number): void {
    // The key is the token's bytes one char each, straight from base64 (see keyOf).
    const key = Buffer.from(base64, "base64").toString("latin1");
    this.ranks.set(key, rank);
    if (key.length > this.longestToken) this.longestToken = key.length;
  }

  /** The tokens of `text`, special tokens (`<|endoftext|>`) included as such, as js-tiktoken's `encode(text, "all")`. */
  encode(text: string): number[] {
    const tokens: number[] = [];
    this.forEachToken(text, (token) => tokens.push(token));
    return tokens;
  }

  count(text: string): number {
    let count = 0;
    this.forEachToken(text, () => count++);
    return count;
  }

  decode(tokens: readonly number[]): string {
    // Only chunking decodes: the reverse map is made on the first decode.
    this.bytesOfRank ??= new Map([...this.ranks].map(([key, rank]) => [rank, Buffer.from(key, "latin1")]));
    const parts: Uint8Array[] = [];
    const specials = new Map(Object.entries(this.specialTokens).map(([text, rank]) => [rank, text]));
    for (const token of tokens) {
      const bytes = this.bytesOfRank.get(token);
      if (bytes) parts.push(bytes);
      else if (specials.has(token)) parts.push(Buffer.from(specials.get(token)!, "utf8"));
    }
    return Buffer.concat(parts).toString("utf8");
  }

  private forEachToken(text: string, emit: (token: number) => void): void {
    let start = 0;
    if (this.specialPattern) {
      this.specialPattern.lastIndex = 0;
      for (const special of text.matchAll(this.specialPattern)) {
        this.encodeOrdinary(text.slice(start, special.index), emit);
        emit(this.specialTokens[special[0]]!);
        start = special.index + special[0].length;
      }
    }
    this.encodeOrdinary(text.slice(start), emit);
  }

  private encodeOrdinary(text: string, emit: (token: number) => void): void {
    for (const match of text.matchAll(this.piecePattern)) {
      const piece = textEncoder.encode(match[0]);
      const whole = this.ranks.get(keyOf(piece, 0, piece.length));
      if (whole !== undefined) emit(whole);
      else this.mergePairs(piece, emit);
    }
  }

  private rankOf(piece: Uint8Array, start: number, end: number): number | undefined {
    if (end - start > this.longestToken) return undefined;
    return this.ranks.get(keyOf(piece, start, end));
  }

  /**
   * The rank of two adjacent tokens merged, or -1. Every part of a piece is a token (single bytes
   * are), so a pair is named by its two ranks; the answers are kept, since a long run repeats pairs.
   */
  private mergedRank(piece: Uint8Array, start: number, end: number, leftRank: number, rightRank: number): number {
    if (leftRank < 0 || rightRank < 0) return this.rankOf(piece, start, end) ?? -1;
    const pair = leftRank * RANK_SPAN + rightRank;
    let merged = this.mergedRanks.get(pair);
    if (merged === undefined) {
      merged = this.rankOf(piece, start, end) ?? -1;
      if (this.mergedRanks.size >= MERGED_RANKS_KEPT) this.mergedRanks.clear();
      this.mergedRanks.set(pair, merged);
    }
    return merged;
  }

  /**
   * Byte pair merging over a linked list of parts, with candidate pairs in a heap ordered by
   * (rank, position). A popped pair whose parts have changed since it was pushed is stale and
   * skipped; so each merge costs log k and the parts merge in js-tiktoken's order.
   */
  private mergePairs(piece: Uint8Array, emit: (token: number) => void): void {
    const length = piece.length;
    // Part i starts at byte i; `end[i]` is where it ends, `next`/`previous` link the live parts.
    const end = new Int32Array(length);
    const next = new Int32Array(length);
    const previous = new Int32Array(length);
    const version = new Int32Array(length);
    const rank = new Int32Array(length);
    for (let index = 0; index < length; index++) {
      end[index] = index + 1;
      next[index] = index + 1 < length ? index + 1 : -1;
      previous[index] = index - 1;
      rank[index] = this.rankOf(piece, index, index + 1) ?? -1;
    }
    const heap = new PairHeap();
    const pushPair = (left: number) => {
      const right = next[left]!;
      if (right < 0) return;
      const merged = this.mergedRank(piece, left, end[right]!, rank[left]!, rank[right]!);
      if (merged >= 0) heap.push(merged, left, version[left]!, version[right]!);
    };
    for (let index = 0; index + 1 < length; index++) pushPair(index);
    for (let pair = heap.pop(); pair; pair = heap.pop()) {
      const left = pair.left;
      const right = next[left]!;
      if (right < 0 || version[left] !== pair.leftVersion || version[right] !== pair.rightVersion) continue;
      end[left] = end[right]!;
      next[left] = next[right]!;
      if (next[right]! >= 0) previous[next[right]!] = left;
      rank[left] = pair.rank;
      version[left] = version[left]! + 1;
      version[right] = -1;
      if (previous[left]! >= 0) pushPair(previous[left]!);
      pushPair(left);
    }
    for (let part = 0; part >= 0; part = next[part]!) if (rank[part]! >= 0) emit(rank[part]!);
  }
}

const textEncoder = new TextEncoder();

/** Ranks added between two yields while building (o200k has about 200,000): a few ms each. */
const BUILD_RANKS_PER_SLICE = 4_000;

/** Ranks are below 2^18 (o200k has about 200,000), so two of them name a pair as one exact number. */
const RANK_SPAN = 2 ** 18;
/** Merged pairs remembered before the memory starts over (a few MB at most). */
const MERGED_RANKS_KEPT = 200_000;

/** A byte string as a map key: one char per byte (a bijection, unlike a text decoder). */
function keyOf(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("latin1");
}

interface Pair {
  rank: number;
  left: number;
  leftVersion: number;
  rightVersion: number;
}

/** A binary min-heap of candidate pairs by rank, then by position (leftmost first, as tiktoken breaks ties). */
class PairHeap {
  private readonly items: Pair[] = [];

  push(rank: number, left: number, leftVersion: number, rightVersion: number): void {
    const items = this.items;
    items.push({ rank, left, leftVersion, rightVersion });
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(items[index]!, items[parent]!)) break;
      [items[index], items[parent]] = [items[parent]!, items[index]!];
      index = parent;
    }
  }

  pop(): Pair | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || !last) return top;
    items[0] = last;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < items.length && before(items[left]!, items[smallest]!)) smallest = left;
      if (right < items.length && before(items[right]!, items[smallest]!)) smallest = right;
      if (smallest === index) break;
      [items[index], items[smallest]] = [items[smallest]!, items[index]!];
      index = smallest;
    }
    return top;
  }
}

function before(a: Pair, b: Pair): boolean {
  return a.rank !== b.rank ? a.rank < b.rank : a.left < b.left;
}
