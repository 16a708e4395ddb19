/**
 * The forms a secret's value takes on its way out, for SecretRedactor. Two kinds:
 * - exact forms, searched in the text as it is (ignoring case): the value, its case changes, URL,
 *   JSON and base64 encodings, hex, reversal and rot13;
 * - skeleton forms, searched in the text's skeleton (its ASCII letters and digits, lower-cased,
 *   everything else dropped), so separators put between the characters do not hide them:
 *   `s-e-c-r-e-t`, `s e c r e t`, hex as `73:65:63` or `\x73\x65`, char codes as `115,101,99`,
 *   base64 wrapped over lines, a value split over the strings of a JSON array.
 */

export const MIN_SECRET_LENGTH = 4;
/**
 * A skeleton form shorter than this is not searched: with separators ignored, a short one would be
 * found across ordinary words ("the best" holds "ebes").
 */
export const MIN_SKELETON_LENGTH = 8;

/** Base64 of `prefixBytes` zero bytes followed by the UTF-8 bytes of `value`, without padding. */
function base64Of(value: Uint8Array, prefixBytes: number): string {
  let binary = "\0".repeat(prefixBytes);
  for (let index = 0; index < value.length; index += 0x8000)
    binary += String.fromCharCode(...value.subarray(index, index + 0x8000));
  return btoa(binary).replace(/=+$/, "");
}

const urlSafe = (base64: string) => base64.replace(/\+/g, "-").replace(/\//g, "_");
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
const reversed = (text: string) => [...text].reverse().join("");
const utf8 = (text: string) => new TextEncoder().encode(text);
const hex = (byte: number) => byte.toString(16).padStart(2, "0");

/** rot13 of the ASCII letters; everything else unchanged. */
export function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (letter) => {
    const base = letter <= "Z" ? 65 : 97;
    return String.fromCharCode(((letter.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/**
 * The base64 forms of a value: the whole encoding (with and without padding), and the characters
 * that depend on the value alone when it starts at byte offset 0, 1 or 2 of a longer encoded text.
 */
function base64Forms(value: string): string[] {
  const bytes = utf8(value);
  const whole = base64Of(bytes, 0);
  const forms = [whole, whole.padEnd(Math.ceil(whole.length / 4) * 4, "=")];
  for (let prefix = 0; prefix < 3; prefix++) {
    const encoded = base64Of(bytes, prefix);
    forms.push(encoded.slice(Math.ceil((8 * prefix) / 6), Math.floor((8 * (prefix + bytes.length)) / 6)));
  }
  return forms.flatMap((form) => [form, urlSafe(form)]);
}

/** The value and its trimmed copy, when long enough to mask. */
function bases(value: string): string[] {
  return [...new Set([value, value.trim()])].filter((base) => base.length >= MIN_SECRET_LENGTH);
}

/** Every exact form of `value` that is masked (matching ignores case, so case changes are covered too). */
export function maskedForms(value: string): string[] {
  const forms = new Set<string>();
  for (const base of bases(value)) {
    const candidates = [
      base,
      base.toUpperCase(),
      base.toLowerCase(),
      encodeURIComponent(base),
      encodeURIComponent(base).replace(/%20/g, "+"),
      encodeURI(base),
      jsonEscaped(base),
      jsonEscaped(jsonEscaped(base)),
      reversed(base),
      rot13(base),
      rot13(reversed(base)),
      Array.from(utf8(base), hex).join(""),
      ...base64Forms(base),
    ];
    for (const form of candidates) if (form.length >= MIN_SECRET_LENGTH) forms.add(form);
  }
  return [...forms];
}

/**
 * Whether a non-ASCII UTF-16 code unit is kept in a skeleton: all are but spaces. (ASCII: letters
 * and digits only, tested inline in skeletonOf, which is on the path of every masked text.)
 */
function keptNonAscii(code: number): boolean {
  return (
    code !== 0xa0 &&
    code !== 0x2028 &&
    code !== 0x2029 &&
    code !== 0x3000 &&
    code !== 0xfeff &&
    !(code >= 0x2000 && code <= 0x200b)
  );
}

const utf16 = new TextDecoder("utf-16le");

/** `text` with only its skeleton characters, ASCII letters lower-cased. */
export function skeletonText(text: string): string {
  return skeletonOf(text).text;
}

/** A text's skeleton, with the index in the text of each of its characters. */
export interface Skeleton {
  text: string;
  /** positions[i]: where skeleton character i is in the original text. */
  positions: Int32Array;
}

/**
 * The skeleton of `text`: its kept characters lower-cased (ASCII only, so lengths never change),
 * with the ranges in `breaks` (sorted, not overlapping) each replaced by one NUL, which no
 * skeleton form holds, so no match crosses them (labels of earlier masking).
 * One pass over the text.
 */
export function skeletonOf(text: string, breaks: ReadonlyArray<{ start: number; end: number }> = []): Skeleton {
  const codes = new Uint16Array(text.length);
  const positions = new Int32Array(text.length);
  let length = 0;
  let nextBreak = 0;
  let breakStart = breaks.length > 0 ? breaks[0]!.start : -1;
  for (let index = 0; index < text.length; index++) {
    if (index === breakStart) {
      codes[length] = 0;
      positions[length++] = index;
      index = breaks[nextBreak]!.end - 1;
      nextBreak++;
      breakStart = nextBreak < breaks.length ? breaks[nextBreak]!.start : -1;
      continue;
    }
    const code = text.charCodeAt(index);
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) codes[length] = code;
    else if (code >= 65 && code <= 90) codes[length] = code + 32;
    else if (code >= 0x80 && keptNonAscii(code)) codes[length] = code;
    else continue;
    positions[length++] = index;
  }
  return { text: utf16.decode(codes.subarray(0, length)), positions: positions.subarray(0, length) };
}

/** The skeleton forms of `value` (already skeletons: lower case, no separators), none shorter than MIN_SKELETON_LENGTH. */
export function skeletonForms(value: string): string[] {
  const forms = new Set<string>();
  for (const base of bases(value)) {
    const bytes = Array.from(utf8(base));
    const codeUnits: number[] = [];
    for (let index = 0; index < base.length; index++) codeUnits.push(base.charCodeAt(index));
    const codePoints = Array.from(base, (character) => character.codePointAt(0)!);
    const candidates = [
      base,
      reversed(base),
      rot13(base),
      rot13(reversed(base)),
      // Hex of the UTF-8 bytes: `73 65`, `73:65`, `%73%65`, `\x73\x65`, `0x73, 0x65`; of the UTF-16 units: `\u0073\u0065`.
      bytes.map(hex).join(""),
      bytes.map((byte) => `x${hex(byte)}`).join(""),
      bytes.map((byte) => `0x${hex(byte)}`).join(""),
      codeUnits.map((unit) => `u${unit.toString(16).padStart(4, "0")}`).join(""),
      // Char codes in decimal, between any separators: `115,101,99`, `[115, 101, 99]`, `115 101 99`.
      codeUnits.join(""),
      codePoints.join(""),
      bytes.join(""),
      ...base64Forms(base),
    ];
    for (const candidate of candidates) {
      const form = skeletonText(candidate);
      if (form.length >= MIN_SKELETON_LENGTH) forms.add(form);
    }
  }
  return [...forms];
}
