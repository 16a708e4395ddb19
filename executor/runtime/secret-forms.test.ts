import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { SecretRedactor } from "./secret-redactor";

const KEY = "sk-Live_9f8e7d6c5b4a/3+2=1";
const redactor = () => new SecretRedactor([["API_KEY", KEY]]);

describe("SecretRedactor: transformed forms", () => {
  const hex = Buffer.from(KEY).toString("hex");
  const codes = [...KEY].map((character) => character.charCodeAt(0));
  const rot13 = (text: string) =>
    text.replace(/[a-z]/gi, (c) =>
      String.fromCharCode(((c.charCodeAt(0) - (c <= "Z" ? 65 : 97) + 13) % 26) + (c <= "Z" ? 65 : 97)),
    );
  it.each([
    ["hex", hex],
    ["upper-case hex", hex.toUpperCase()],
    ["hex with spaces", hex.match(/../g)!.join(" ")],
    ["hex with colons", hex.match(/../g)!.join(":").toUpperCase()],
    [
      "\\x escapes",
      hex
        .match(/../g)!
        .map((pair) => `\\x${pair}`)
        .join(""),
    ],
    [
      "0x numbers",
      hex
        .match(/../g)!
        .map((pair) => `0x${pair}`)
        .join(", "),
    ],
    ["\\u escapes", [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")],
    [
      "percent-encoded bytes",
      hex
        .match(/../g)!
        .map((pair) => `%${pair}`)
        .join(""),
    ],
    ["char codes joined by commas", codes.join(",")],
    ["char codes joined by spaces", codes.join(" ")],
    ["char codes as a JSON array", JSON.stringify(codes)],
    ["dashes between characters", [...KEY].join("-")],
    ["spaces between characters", [...KEY].join(" ")],
    ["dots and underscores between characters", [...KEY].join("._")],
    ["rot13", rot13(KEY)],
    ["reversed rot13", rot13([...KEY].reverse().join(""))],
    ["rot13 with spaces between characters", [...rot13(KEY)].join(" ")],
    [
      "base64 wrapped over lines",
      Buffer.from(KEY)
        .toString("base64")
        .replace(/(.{8})/g, "$1\n"),
    ],
    ["a JSON array of its characters", JSON.stringify([...KEY])],
  ])("masks the value written as %s", (_what, form) => {
    const masked = redactor().redactText(`before ${form} after`);
    expect(masked).toContain("[secret:API_KEY]");
    expect(masked.startsWith("before ")).toBe(true);
    expect(masked.endsWith(" after")).toBe(true);
    // Nothing of the value's middle is left in any of its forms.
    expect(masked.replace(/[^a-z0-9]/gi, "").toLowerCase()).not.toContain("9f8e7d");
    expect(masked).not.toContain(form.slice(4, 16));
  });

  it("masks the skeleton forms inside a structure's strings too", () => {
    const masked = redactor().redact({ note: `key: ${[...KEY].join(" ")}`, hex: [hex.slice(0, 10), hex.slice(10)] });
    expect(JSON.stringify(masked)).not.toContain("9 f 8 e");
    expect(JSON.stringify(masked)).not.toContain(hex.slice(10, 30));
  });

  it("does not find short values across separators (a value needs 8 letters and digits for that)", () => {
    const masker = new SecretRedactor([["SHORT", "best"]]);
    expect(masker.redactText("the best, the b-e-s-t")).toBe("the [secret:SHORT], the b-e-s-t");
  });

  it("holds back a separated form streamed in pieces, and masks it whole", () => {
    const spaced = [...KEY].join(" ");
    const stream = redactor().stream();
    const shown = [
      stream.push("say "),
      ...[...spaced].map((character) => stream.push(character)),
      stream.push(" done"),
      stream.end(),
    ];
    expect(shown.join("")).toBe("say [secret:API_KEY] done");
    expect(shown.join("|")).not.toContain("9 f 8");
  });

  it("holds back a bounded tail while separators follow what could start a form, so a stream costs its length", () => {
    const stream = redactor().stream();
    expect(stream.push("say sk")).toBe("say ");
    let shown = "";
    for (let count = 0; count < 2_000; count++) shown += stream.push(" ");
    // The start was let go once the spaces outgrew any separated form; what is held is a few characters.
    expect(shown.startsWith("sk ")).toBe(true);
    expect(shown.length).toBeGreaterThan(2_000 - 4 * 200);
    expect(shown + stream.end()).toBe(`sk${" ".repeat(2_000)}`);
  });

  it("stays linear in the size of the text", () => {
    const masker = redactor();
    // The best of five runs, so a busy machine (or a collection) does not decide the ratio.
    const time = (text: string) =>
      Math.min(
        ...[0, 1, 2, 3, 4].map(() => {
          const started = performance.now();
          masker.redactText(text);
          return performance.now() - started;
        }),
      );
    const hostile = (length: number) =>
      `${[...KEY.slice(0, -1)].join(" ")} `.repeat(Math.ceil(length / (KEY.length * 2))).slice(0, length);
    time(hostile(10_000));
    const small = Math.max(time(hostile(125_000)), 0.5);
    const large = time(hostile(2_000_000));
    // Sixteen times the text: linear work takes about 16 times as long, quadratic about 256 times.
    expect(large / small).toBeLessThan(80);
  });
});
