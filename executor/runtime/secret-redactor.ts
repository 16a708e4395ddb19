/**
 * SecretRedactor: the one place where secret values are masked, for everything a run stores or
 * shows (events, spans, its output and error, log lines). A value is replaced by `[secret:NAME]`
 * (docs/CONTRACT.md section 8), and so are the forms it commonly takes on its way out (see
 * secret-forms.ts): any change of case, URL encoding, base64 (at any byte alignment, so a key
 * inside `user:key` encoded for Basic auth is caught too, and wrapped over lines), JSON string
 * escaping (once and twice), hex, decimal char codes, reversal, rot13, and any of these with
 * separators between the characters (`s-e-c-r-e-t`, `73 65 63`, `115,101,99`).
 *
 * A structured value is read as one text: its strings, object and Map keys and char-code integers
 * joined in order (and once more without the keys), so a value in a key, split over consecutive
 * strings (`["sec", "ret"]`, `{ a: "sec", b: "ret" }`) or spelled as a list of char codes is
 * masked too; each piece a match touches is masked where the match covers it. The work is linear
 * in the value's size: a few passes per masked form.
 *
 * Pure and in memory: it is given the values (stored secrets, allowed env values) and learns more
 * as `{{NAME}}` references read them. Masking is idempotent: a `[secret:NAME]` label already in a
 * text is left alone. Streamed text goes through `stream()`, which holds back the tail of each chunk
 * that could be the start of a value, so a value split across chunks is still caught.
 *
 * What it cannot catch (README, "Secrets"): a value transformed in other ways (encrypted, hashed,
 * compressed, shuffled, other ciphers or encodings), split over several outputs, runs or blocks,
 * or over strings with other text between them; the separated, hex-with-separators and char-code
 * forms of a value with fewer than 8 letters and digits; values shorter than four characters.
 */

import { maskedForms, MIN_SECRET_LENGTH, skeletonForms, skeletonOf } from "./secret-forms";
import {
  groupMatches,
  maskPieces,
  render,
  skeletonMatches,
  type Match,
  type MatchGroup,
  type SkeletonPattern,
} from "./secret-matches";
import { collectPieces, pieceText, rebuildValue, type Piece } from "./value-pieces";

export { maskedForms, MIN_SECRET_LENGTH, skeletonForms } from "./secret-forms";
export { secretLabel } from "./secret-matches";

const LABEL_PATTERN = /\[secret:([A-Za-z_][A-Za-z0-9_]*)\]/g;

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
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
  for (let index = start; index < text.length; index++)
    if (text.charCodeAt(index) !== form.charCodeAt(index - start)) return false;
  return true;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * A stream holds back a separated form for at most this many characters per character of it (the
 * character and up to three separators after it): `s - e - c` split over chunks is caught, wider
 * spacing split over chunks is not (within one chunk it is).
 */
const SEPARATED_SPAN = 4;

export class SecretRedactor {
  private readonly patterns: Pattern[] = [];
  private readonly skeletonPatterns: SkeletonPattern[] = [];
  private readonly values = new Set<string>();
  private readonly forms = new Set<string>();
  private readonly skeletons = new Set<string>();
  private readonly names = new Set<string>();
  private shortest = Infinity;
  private longest = 0;
  private longestSkeleton = 0;

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
    for (const form of skeletonForms(value)) {
      if (this.skeletons.has(form)) continue;
      this.skeletons.add(form);
      this.skeletonPatterns.push({ form, name });
      this.shortest = Math.min(this.shortest, form.length);
      this.longestSkeleton = Math.max(this.longestSkeleton, form.length);
    }
  }

  /** How many distinct values are masked. */
  get size(): number {
    return this.values.size;
  }

  /** The length of the longest exact form: a stream holds back at most one character less (plus separators). */
  get longestForm(): number {
    return this.longest;
  }

  redactText(text: string): string {
    const groups = this.groupsIn(text);
    return groups.length === 0 ? text : render(text, groups);
  }

  /**
   * A copy of `value` with every secret in it masked: in strings, keys, across consecutive pieces and
   * in char-code integers (which become the label). Parts with nothing to mask are shared, not copied.
   */
  redact<T>(value: T): T {
    if (this.patterns.length === 0) return value;
    if (typeof value === "string") return this.redactText(value) as T;
    // Twice when the value has keys: with them (a value in a key, or split between a key and its
    // value), then without (split over the values of an object, which its keys would separate).
    const pieces: Piece[] = [];
    const keyCount = collectPieces(value, pieces, true);
    const masked = this.redactPieces(value, pieces, true);
    if (keyCount === 0) return masked as T;
    const values: Piece[] = [];
    collectPieces(masked, values, false);
    return this.redactPieces(masked, values, false) as T;
  }

  private redactPieces(value: unknown, pieces: readonly Piece[], keys: boolean): unknown {
    if (pieces.length === 0) return value;
    const texts = pieces.map(pieceText);
    const groups = this.groupsIn(texts.join(""));
    if (groups.length === 0) return value;
    return rebuildValue(value, maskPieces(texts, groups), keys);
  }

  /**
   * Masks text that arrives in chunks (a model's streamed output). Each `push` returns what is safe
   * to show now and holds back the tail that could be the start of a masked form (at most
   * `longestForm - 1` characters and the separators between them, and only when the text ends like
   * one), since the value may go on in the next chunk; `end` returns the rest, masked.
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
    if (this.skeletonPatterns.length === 0) return from;
    // Only the last few characters per character of the longest form: a held tail never grows
    // past that however many separators follow, so each push costs its own length, not the stream's.
    const offset = Math.max(0, text.length - SEPARATED_SPAN * this.longestSkeleton);
    const skeleton = skeletonOf(text.slice(offset));
    let skeletonFrom = skeleton.text.length;
    for (const { form } of this.skeletonPatterns) {
      const first = form.charCodeAt(0);
      for (let start = Math.max(0, skeleton.text.length - form.length + 1); start < skeletonFrom; start++) {
        if (skeleton.text.charCodeAt(start) === first && startsFormAt(skeleton.text, start, form)) {
          skeletonFrom = start;
          break;
        }
      }
    }
    return skeletonFrom < skeleton.text.length ? Math.min(from, offset + skeleton.positions[skeletonFrom]!) : from;
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
    const labels = [...text.matchAll(LABEL_PATTERN)]
      .filter((label) => this.names.has(label[1]!))
      .map((label) => ({ start: label.index, end: label.index + label[0].length }));
    if (this.skeletonPatterns.length > 0)
      matches.push(...skeletonMatches(skeletonOf(text, labels), this.skeletonPatterns));
    if (matches.length === 0) return [];
    const outside =
      labels.length === 0
        ? matches
        : matches.filter((match) => !labels.some((label) => match.start >= label.start && match.end <= label.end));
    return groupMatches(outside);
  }
}

/** Streamed text, masked chunk by chunk (see SecretRedactor.stream). */
export interface SecretStream {
  push(text: string): string;
  end(): string;
}
