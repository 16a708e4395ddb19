import { describe, expect, it } from "vitest";
import { SecretRedactor } from "./secret-redactor";

const KEY = "sk-Live_9f8e7d6c5b4a/3+2=1";
const redactor = () => new SecretRedactor([["API_KEY", KEY]]);

describe("SecretRedactor: keys and values spread over a structure", () => {
  it("masks a key holding the value, nested keys and keys that mask alike", () => {
    const masked = redactor().redact({ [KEY]: 1, nested: { deeper: { [`x-${KEY}`]: true } }, [KEY.toUpperCase()]: 2 });
    expect(JSON.stringify(masked)).not.toMatch(/9f8e7d/i);
    expect(masked).toEqual({
      "[secret:API_KEY]": 1,
      nested: { deeper: { "x-[secret:API_KEY]": true } },
      "[secret:API_KEY] (2)": 2,
    });
  });

  it("masks the keys and values of a Map and the items of a Set", () => {
    const value = {
      map: new Map<string, unknown>([
        [KEY, "a"],
        ["b", KEY],
      ]),
      set: new Set([KEY]),
    };
    const masked = redactor().redact(value);
    expect([...masked.map.entries()]).toEqual([
      ["[secret:API_KEY]", "a"],
      ["b", "[secret:API_KEY]"],
    ]);
    expect([...masked.set]).toEqual(["[secret:API_KEY]"]);
  });

  it("keeps a `__proto__` key a key", () => {
    const value = JSON.parse(`{"__proto__": "${KEY}"}`) as Record<string, unknown>;
    const masked = redactor().redact(value);
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(JSON.stringify(masked)).toBe('{"__proto__":"[secret:API_KEY]"}');
  });

  it("masks a value split over consecutive strings of an array, of an object's values, and of keys and values", () => {
    const masker = redactor();
    const thirds = [KEY.slice(0, 8), KEY.slice(8, 16), KEY.slice(16)];
    const split = masker.redact(["before", ...thirds, "after"]);
    expect(split).toEqual(["before", "[secret:API_KEY]", "[secret:API_KEY]", "[secret:API_KEY]", "after"]);
    const inValues = masker.redact({ a: thirds[0], b: thirds[1], c: thirds[2] });
    expect(JSON.stringify(inValues)).not.toContain(thirds[1]);
    const inKeys = masker.redact({ [thirds[0]!]: thirds[1], [thirds[2]!]: 0 });
    expect(Object.keys(inKeys).join("")).not.toContain(thirds[0]);
    expect(JSON.stringify(inKeys)).not.toContain(thirds[1]);
  });

  it("masks a value spelled as a list of char codes, and leaves other numbers alone", () => {
    const codes = [...KEY].map((character) => character.charCodeAt(0));
    const masked = redactor().redact({ codes, other: [1, 2, 3], price: 12.5 });
    expect((masked.codes as unknown[]).every((code) => code === "[secret:API_KEY]")).toBe(true);
    expect(masked.other).toEqual([1, 2, 3]);
    expect(masked.price).toBe(12.5);
  });

  it("leaves a value with nothing to mask as it is (the same object)", () => {
    const value = { a: ["sk-", "Live"], b: { c: 1 } };
    expect(redactor().redact(value)).toBe(value);
  });
});
