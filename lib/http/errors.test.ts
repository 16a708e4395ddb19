import { describe, expect, it } from "vitest";
import { errorResponse } from "./errors";

describe("errorResponse", () => {
  it("recognises a Trellis error thrown by another copy of the module (routes are bundled apart)", async () => {
    // What a NotFoundError from another bundle looks like to this one: same brand, different class.
    const foreign = Object.assign(new Error('Run "r1" was not found'), { code: "not_found", details: [], [Symbol.for("trellis.error")]: true });
    const response = errorResponse(foreign);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "not_found", message: 'Run "r1" was not found', details: [] } });
  });

  it("answers an unknown error with a generic 500 that leaks nothing", async () => {
    const response = errorResponse(new Error("password=hunter2 at db.internal:5432"));
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain("hunter2");
  });
});
