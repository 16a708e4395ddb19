import { describe, expect, it } from "vitest";
import { detectFileKind } from "./file-kind";
import { safeFileName } from "./safe-file-name";

const text = (value: string) => new TextEncoder().encode(value);
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe("detectFileKind", () => {
  it("accepts each supported type when the content matches", () => {
    expect(detectFileKind("a.txt", text("hello"))).toBe("txt");
    expect(detectFileKind("A.MD", text("# hi"))).toBe("md");
    expect(detectFileKind("page.htm", text("<p>hi</p>"))).toBe("html");
    expect(detectFileKind("data.csv", text("a,b\n1,2"))).toBe("csv");
    expect(detectFileKind("data.json", text("{}"))).toBe("json");
    expect(detectFileKind("doc.pdf", text("%PDF-1.4\n..."))).toBe("pdf");
  });

  it("refuses unknown extensions, naming the supported ones", () => {
    expect(() => detectFileKind("setup.exe", text("MZ"))).toThrow(/unsupported type \(\.exe\).*\.txt/);
    expect(() => detectFileKind("README", text("hi"))).toThrow(/no extension/);
  });

  it("refuses content that does not match the extension", () => {
    expect(() => detectFileKind("notes.txt", png)).toThrow(/named \.txt but its content is a PNG image/);
    expect(() => detectFileKind("report.pdf", text("just text"))).toThrow(/not a PDF/);
    expect(() => detectFileKind("fake.md", text("%PDF-1.7 hidden"))).toThrow(/PDF/);
    expect(() => detectFileKind("bin.csv", new Uint8Array([0x61, 0x00, 0x62]))).toThrow(/binary data/);
    expect(() => detectFileKind("latin.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toThrow(/not valid UTF-8/);
    expect(() => detectFileKind("empty.txt", new Uint8Array())).toThrow(/empty/);
  });
});

describe("safeFileName", () => {
  it("keeps only the base name of path-like names", () => {
    expect(safeFileName("../../etc/passwd.txt")).toBe("passwd.txt");
    expect(safeFileName("..\\..\\windows\\system.ini.md")).toBe("system.ini.md");
    expect(safeFileName("/abs/path/policy.pdf")).toBe("policy.pdf");
  });

  it("never yields a dot name, an empty name or control characters", () => {
    expect(safeFileName("..")).toBe("document");
    expect(safeFileName("")).toBe("document");
    expect(safeFileName(".hidden.txt")).toBe("hidden.txt");
    expect(safeFileName("bad\u0000name\n.txt")).toBe("badname.txt");
  });

  it("shortens very long names but keeps the extension", () => {
    const name = safeFileName(`${"x".repeat(500)}.json`);
    expect(name.length).toBe(200);
    expect(name.endsWith(".json")).toBe(true);
  });
});
