/**
 * SecretRedactor: the one place where secret values are masked, for everything a run stores or
 * shows (events, spans, its output and error, log lines). A value is replaced by `[secret:NAME]`
 * (docs/CONTRACT.md section 8), and so are the forms a value commonly takes on its way out: any
 * change of case, URL encoding, base64 (standard and URL-safe, at any byte alignment, so a key
 * inside `user:key` encoded for Basic auth is caught too), JSON string escaping (once and twice)
 * and reversal. Values shorter than MIN_SECRET_LENGTH are not masked: they would blank out
 * ordinary words.
 *
 * Pure and in memory: it is given the values (stored secrets, allowed env values) and learns more
 * as `{{NAME}}` references read them. Masking is idempotent: a `[secret:NAME]` label already in a
 * text is left alone. Streamed text goes through `stream()`, which holds back the tail of each chunk
 * that could be the start of a value, so a value split across chunks is still caught.
 */

export const MIN_SECRET_LENGTH = 4;

/** What a masked value is replaced by. */
export function secretLabel(name: string): string {
  return `[secret:${name}]`;
}

const LABEL_PATTERN = /\[secret:([A-Za-z_][A-Za-z0-9_]*)\]/g;

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}

/** Base64 of `prefixBytes` zero bytes followed by the UTF-8 bytes of `value`, without padding. */
function base64Of(value: Uint8Array, prefixBytes: number): string {
  let binary = "\0".repeat(prefixBytes);
  for (let index = 0; index < value.length; index += 0x8000) binary += String.fromCharCode(...value.subarray(index, index + 0x8000));
  return btoa(binary).replace(/=+$/, "");
}

const urlSafe = (base64: string) => base64.replace(/\+/g, "-").replace(/\//g, "_");
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);

/**
 * The base64 forms of a value: the whole encoding (with and without padding), and the characters
 * that depend on the value alone when it starts at byte offset 0, 1 or 2 of a longer encoded text.
 */
function base64Forms(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  const whole = base64Of(bytes, 0);
  const forms = [whole, whole.padEnd(Math.ceil(whole.length / 4) * 4, "=")];
  for (let prefix = 0; prefix < 3; prefix++) {
    const encoded = base64Of(bytes, prefix);
    forms.push(encoded.slice(Math.ceil((8 * prefix) / 6), Math.floor((8 * (prefix + bytes.length)) / 6)));
  }
  return forms.flatMap((form) => [form, urlSafe(form)]);
}

/** Every form of `value` that is masked (matching ignores case, so case changes are covered too). */
export function maskedForms(value: string): string[] {
  const forms = new Set<string>();
  for (const base of new Set([value, value.trim()])) {
    if (base.length < MIN_SECRET_LENGTH) continue;
    const candidates = [
      base,
      base.toUpperCase(),
      base.toLowerCase(),
      encodeURIComponent(base),
      encodeURIComponent(base).replace(/%20/g, "+"),
      encodeURI(base),
      jsonEscaped(base),
      jsonEscaped(jsonEscaped(base)),
      [...base].reverse().join(""),
      ...base64Forms(base),
    ];
    for (const form of candidates) if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
  }
  return [...forms];
}

interface Pattern {
  regex: RegExp;
  /** The form in lower case, to tell whether a text ends with the start of it. */
  lower: string;
  name: string;
  length: number;
}

/** Whether `text` from `start` to its end is the beginning of `form` (both in lower case). */
function startsFormAt(text: string, start: number, form: string): boolean {
  if (text.length - start >= form.length) return false;
  for (let index = start; index < text.length; index++) if (text.charCodeAt(index) !== form.charCodeAt(index - start)) return false;
  return true;
}

/** One occurrence of a masked form: [start, end) in the text. */
interface Match {
  start: number;
  end: number;
  name: string;
}

/** Occurrences grouped where they overlap; each group becomes the labels of its outermost matches. */
interface MatchGroup {
  start: number;
  end: number;
  names: string[];
}

function groupMatches(matches: Match[]): MatchGroup[] {
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end);
  const groups: Array<{ start: number; end: number; members: Match[] }> = [];
  for (const match of sorted) {
    const last = groups.at(-1);
    if (last && match.start < last.end) {
      last.end = Math.max(last.end, match.end);
      last.members.push(match);
    } else groups.push({ start: match.start, end: match.end, members: [match] });
  }
  return groups.map(({ start, end, members }) => {
    // A match inside another (a secret that is part of a longer one, or a shorter form) adds no label.
    const outermost = members.filter((member, index) => !members.some((other, at) => at < index && other.start <= member.start && member.end <= other.end));
    return { start, end, names: [...new Set(outermost.map((member) => member.name))] };
  });
}

function render(text: string, groups: MatchGroup[]): string {
  let result = "";
  let last = 0;
  for (const group of groups) {
    result += text.slice(last, group.start) + group.names.map(secretLabel).join("");
    last = group.end;
  }
  return result + text.slice(last);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export class SecretRedactor {
  private readonly patterns: Pattern[] = [];
  private readonly values = new Set<string>();
  private readonly forms = new Set<string>();
  private readonly names = new Set<string>();
  private shortest = Infinity;
  private longest = 0;

  constructor(secrets: Iterable<readonly [name: string, value: string]> = []) {
    for (const [name, value] of secrets) this.add(name, value);
  }

  /** Masks `value` (and its forms) as `[secret:name]` from now on; a value already known keeps its first name. */
  add(name: string, value: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.values.has(value)) return;
    this.values.add(value);
    this.names.add(name);
    for (const form of maskedForms(value)) {
      const key = form.toLowerCase();
      if (this.forms.has(key)) continue;
      this.forms.add(key);
      this.patterns.push({ regex: new RegExp(escapeRegExp(form), "gi"), lower: key, name, length: form.length });
      this.shortest = Math.min(this.shortest, form.length);
      this.longest = Math.max(this.longest, form.length);
    }
  }

  /** How many distinct values are masked. */
  get size(): number {
    return this.values.size;
  }

  /** The length of the longest masked form: a stream holds back one character less. */
  get longestForm(): number {
    return this.longest;
  }

  redactText(text: string): string {
    const groups = this.groupsIn(text);
    return groups.length === 0 ? text : render(text, groups);
  }

  /** A copy of `value` with every string in it masked; parts with nothing to mask are shared, not copied. */
  redact<T>(value: T): T {
    if (this.patterns.length === 0) return value;
    return this.redactValue(value) as T;
  }

  /**
   * Masks text that arrives in chunks (a model's streamed output). Each `push` returns what is safe
   * to show now and holds back the tail that could be the start of a masked form (at most
   * `longestForm - 1` characters, and only when the text ends like one), since the value may go
   * on in the next chunk; `end` returns the rest, masked, when the stream is over.
   */
  stream(): SecretStream {
    let pending = "";
    return {
      push: (text) => {
        const buffer = pending + text;
        let cut = this.heldFrom(buffer);
        if (cut > 0 && cut < buffer.length && isHighSurrogate(buffer.charCodeAt(cut - 1))) cut -= 1;
        const groups = this.groupsIn(buffer);
        // Never cut through a group of occurrences: all of it waits and is masked whole.
        for (const group of groups) if (group.start < cut && cut < group.end) cut = group.start;
        pending = buffer.slice(cut);
        return render(
          buffer.slice(0, cut),
          groups.filter((group) => group.end <= cut),
        );
      },
      end: () => {
        const rest = pending;
        pending = "";
        return this.redactText(rest);
      },
    };
  }

  /** Where the tail of `text` that could begin a masked form starts (`text.length` when it ends like none). */
  private heldFrom(text: string): number {
    const lower = text.toLowerCase();
    // Case mapping changed the length (rare scripts): hold back the most a form could need.
    if (lower.length !== text.length) return Math.max(0, text.length - Math.max(0, this.longest - 1));
    let from = text.length;
    for (const pattern of this.patterns) {
      const first = pattern.lower.charCodeAt(0);
      for (let start = Math.max(0, lower.length - pattern.length + 1); start < from; start++) {
        if (lower.charCodeAt(start) === first && startsFormAt(lower, start, pattern.lower)) {
          from = start;
          break;
        }
      }
    }
    return from;
  }

  /** The overlapping groups of occurrences in `text`, leaving alone the labels of earlier masking. */
  private groupsIn(text: string): MatchGroup[] {
    if (text.length < this.shortest) return [];
    const matches: Match[] = [];
    for (const pattern of this.patterns) {
      if (pattern.length > text.length) continue;
      const { regex } = pattern;
      regex.lastIndex = 0;
      for (let found = regex.exec(text); found; found = regex.exec(text)) {
        matches.push({ start: found.index, end: found.index + found[0].length, name: pattern.name });
        regex.lastIndex = found.index + 1;
      }
    }
    if (matches.length === 0) return [];
    const labels = [...text.matchAll(LABEL_PATTERN)]
      .filter((label) => this.names.has(label[1]!))
      .map((label) => ({ start: label.index, end: label.index + label[0].length }));
    const outside = labels.length === 0 ? matches : matches.filter((match) => !labels.some((label) => match.start >= label.start && match.end <= label.end));
    return groupMatches(outside);
  }

  private redactValue(value: unknown): unknown {
    if (typeof value === "string") return this.redactText(value);
    if (Array.isArray(value)) {
      let changed = false;
      const result = value.map((item) => {
        const masked = this.redactValue(item);
        if (masked !== item) changed = true;
        return masked;
      });
      return changed ? result : value;
    }
    if (value === null || typeof value !== "object" || ArrayBuffer.isView(value) || typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
    let changed = false;
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const masked = this.redactValue(item);
      if (masked !== item) changed = true;
      result[key] = masked;
    }
    return changed ? result : value;
  }
}

/** Streamed text, masked chunk by chunk (see SecretRedactor.stream). */
export interface SecretStream {
  push(text: string): string;
  end(): string;
}
