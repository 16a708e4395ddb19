import { describe, expect, it } from "vitest";
import { documentsPollInterval } from "./documents-poll";

describe("documentsPollInterval", () => {
  it("polls while a document is pending or processing and stops when all are settled", () => {
    expect(documentsPollInterval([{ status: "ready" }, { status: "processing" }], false, 2)).toBe(1000);
    expect(documentsPollInterval([{ status: "pending" }], false, 1)).toBe(1000);
    expect(documentsPollInterval([{ status: "ready" }, { status: "failed" }], false, 2)).toBe(false);
  });

  it("keeps asking while the list holds fewer documents than the base counts", () => {
    expect(documentsPollInterval([], false, 3)).toBe(1000);
    expect(documentsPollInterval([{ status: "ready" }], false, 3)).toBe(1000);
  });

  it("retries after a failed request instead of leaving the list stale", () => {
    expect(documentsPollInterval(undefined, true, 0)).toBe(3000);
    expect(documentsPollInterval([], true, 3)).toBe(3000);
  });

  it("does not poll before the first answer", () => {
    expect(documentsPollInterval(undefined, false, 3)).toBe(false);
  });
});
