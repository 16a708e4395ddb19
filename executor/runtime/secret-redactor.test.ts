import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { maskedForms, SecretRedactor } from "./secret-redactor";

const KEY = "sk-Live_9f8e7d6c5b4a/3+2=1";
const redactor = () => new SecretRedactor([["API_KEY", KEY]]);

describe("SecretRedactor", () => {
  it("replaces a value by [secret:NAME] wherever it appears", () => {
    expect(redactor().redactText(`Bearer ${KEY} and again ${KEY}.`)).toBe(
      "Bearer [secret:API_KEY] and again [secret:API_KEY].",
    );
  });

  it.each([
    ["upper case", KEY.toUpperCase()],
    ["lower case", KEY.toLowerCase()],
    [
      "mixed case",
      [...KEY].map((character, index) => (index % 2 ? character.toUpperCase() : character.toLowerCase())).join(""),
    ],
    ["URL-encoded", encodeURIComponent(KEY)],
    ["URL-encoded with lower-case escapes", encodeURIComponent(KEY).toLowerCase()],
    ["base64", Buffer.from(KEY).toString("base64")],
    ["URL-safe base64", Buffer.from(KEY).toString("base64url")],
    ["JSON-escaped", JSON.stringify(KEY).slice(1, -1)],
    ["reversed", [...KEY].reverse().join("")],
  ])("masks the %s form", (_what, form) => {
    const masked = redactor().redactText(`before ${form} after`);
    expect(masked).toContain("[secret:API_KEY]");
    expect(masked).not.toContain(form);
    expect(masked.startsWith("before ")).toBe(true);
  });

  it("masks a value inside a longer base64 text at any byte offset (Basic auth)", () => {
    for (const user of ["a", "ab", "abc", "user"]) {
      const header = Buffer.from(`${user}:${KEY}`).toString("base64");
      const masked = redactor().redactText(`Basic ${header}`);
      expect(masked, user).toContain("[secret:API_KEY]");
      // At most the characters shared with the user name and two edge characters remain.
      expect(masked.length, user).toBeLessThan(
        `Basic [secret:API_KEY]`.length + Math.ceil((user.length + 1) * (4 / 3)) + 4,
      );
    }
  });

  it("masks JSON-escaped values holding quotes, backslashes and new lines, escaped once and twice", () => {
    const pem = '-----BEGIN KEY-----\nab"cd\\ef\n-----END KEY-----';
    const masker = new SecretRedactor([["PEM", pem]]);
    const once = JSON.stringify({ key: pem });
    const twice = JSON.stringify({ body: once });
    expect(masker.redactText(once)).toBe('{"key":"[secret:PEM]"}');
    expect(masker.redactText(twice)).not.toContain("BEGIN KEY");
  });

  it("lists each form once, and none shorter than four characters", () => {
    const forms = maskedForms("abcd");
    expect(new Set(forms).size).toBe(forms.length);
    expect(forms.every((form) => form.length >= 4)).toBe(true);
    expect(forms).toEqual(expect.arrayContaining(["abcd", "ABCD", "dcba", "YWJjZA==", "YWJjZA"]));
  });

  it("does not mask values shorter than four characters", () => {
    const masker = new SecretRedactor([["SHORT", "abc"]]);
    expect(masker.size).toBe(0);
    expect(masker.redactText("abc abc")).toBe("abc abc");
  });

  it("masks overlapping secrets without leaving a piece of either", () => {
    const masker = new SecretRedactor([
      ["FIRST", "alpha-bravo-charlie"],
      ["SECOND", "charlie-delta-echo"],
    ]);
    expect(masker.redactText("x alpha-bravo-charlie-delta-echo y")).toBe("x [secret:FIRST][secret:SECOND] y");
  });

  it("masks a secret inside a longer one under the longer one's name", () => {
    const masker = new SecretRedactor([
      ["INNER", "token-1234"],
      ["OUTER", "prefix-token-1234-suffix"],
    ]);
    expect(masker.redactText("prefix-token-1234-suffix and token-1234")).toBe("[secret:OUTER] and [secret:INNER]");
  });

  it("keeps the first name of a value stored under two names", () => {
    const masker = new SecretRedactor([
      ["OPENAI_API_KEY", "sk-same-value"],
      ["COPY", "sk-same-value"],
    ]);
    expect(masker.redactText("sk-same-value")).toBe("[secret:OPENAI_API_KEY]");
  });

  it("is idempotent: labels are left alone even when a secret's value is part of one", () => {
    const masker = new SecretRedactor([
      ["API_KEY", KEY],
      ["WORD", "secret"],
    ]);
    const once = masker.redactText(`${KEY} secret`);
    expect(once).toBe("[secret:API_KEY] [secret:WORD]");
    expect(masker.redactText(once)).toBe(once);
  });

  it("masks nested values, sharing the parts with nothing to mask", () => {
    const masker = redactor();
    const clean = { list: [1, "two", { three: 3 }] };
    const value = { clean, dirty: { headers: { authorization: `Bearer ${KEY}` }, items: [KEY, 4, null] } };
    const masked = masker.redact(value);
    expect(masked).toEqual({
      clean,
      dirty: { headers: { authorization: "Bearer [secret:API_KEY]" }, items: ["[secret:API_KEY]", 4, null] },
    });
    expect(masked.clean).toBe(clean);
    expect(value.dirty.items[0]).toBe(KEY);
    expect(masker.redact(clean)).toBe(clean);
  });

  it("learns values added later", () => {
    const masker = new SecretRedactor();
    expect(masker.redactText("hunter22")).toBe("hunter22");
    masker.add("PASSWORD", "hunter22");
    expect(masker.redactText("HUNTER22")).toBe("[secret:PASSWORD]");
  });
});

describe("SecretRedactor.stream", () => {
  function streamed(masker: SecretRedactor, chunks: string[]): string[] {
    const stream = masker.stream();
    return [...chunks.map((chunk) => stream.push(chunk)), stream.end()];
  }

  it("masks a value split across two chunks, and never shows a piece of it", () => {
    const masker = redactor();
    const half = Math.floor(KEY.length / 2);
    const out = streamed(masker, [`The key is ${KEY.slice(0, half)}`, `${KEY.slice(half)} - done.`]);
    expect(out.join("")).toBe("The key is [secret:API_KEY] - done.");
    for (const piece of out) expect(piece).not.toContain(KEY.slice(0, 4));
  });

  it("masks a value streamed one character at a time, in any transformed form", () => {
    for (const form of [KEY, KEY.toUpperCase(), Buffer.from(KEY).toString("base64"), [...KEY].reverse().join("")]) {
      const out = streamed(redactor(), [..."start ", ...form, ..." end"]);
      expect(out.join("")).toBe("start [secret:API_KEY] end");
      expect(out.join("|")).not.toContain(form.slice(0, 6));
    }
  });

  it("holds back only a tail that could be the start of a value, and shows it once the text goes on otherwise", () => {
    const masker = new SecretRedactor([["PIN", "12345678"]]);
    const stream = masker.stream();
    expect(stream.push("-".repeat(100))).toBe("-".repeat(100));
    expect(stream.push("code 1234")).toBe("code ");
    expect(stream.push("5")).toBe("");
    expect(stream.push("0 left")).toBe("123450 left");
    expect(stream.push(" and 12")).toBe(" and ");
    expect(stream.end()).toBe("12");
  });

  it("holds back a tail that could start any masked form, whatever its case", () => {
    const masker = redactor();
    const base64 = Buffer.from(KEY).toString("base64");
    for (const start of [
      KEY.slice(0, 6),
      KEY.toUpperCase().slice(0, 6),
      base64.slice(0, 6),
      [...KEY].reverse().join("").slice(0, 6),
    ]) {
      const stream = masker.stream();
      expect(stream.push(`say ${start}`)).toBe("say ");
    }
  });

  it("passes text straight through when there is nothing to mask", () => {
    expect(streamed(new SecretRedactor(), ["Hel", "lo"])).toEqual(["Hel", "lo", ""]);
  });

  it("masks overlapping secrets split across chunks", () => {
    const masker = new SecretRedactor([
      ["FIRST", "alpha-bravo-charlie"],
      ["SECOND", "charlie-delta-echo"],
    ]);
    const text = "x alpha-bravo-charlie-delta-echo y";
    for (let split = 1; split < text.length; split++) {
      const out = streamed(masker, [text.slice(0, split), text.slice(split)]);
      expect(out.join(""), `split at ${split}`).toBe("x [secret:FIRST][secret:SECOND] y");
    }
  });

  it("never splits a surrogate pair when it holds back the most a form could need", () => {
    const masker = new SecretRedactor([["PIN", "12345678"]]);
    const stream = masker.stream();
    // "İ" changes length in lower case, so the stream holds back longestForm - 1 characters, which would start inside the emoji.
    const text = `İa😀${"b".repeat(masker.longestForm - 2)}`;
    const shown = stream.push(text);
    expect(shown).toBe("İa");
    expect(shown + stream.end()).toBe(text);
  });
});
