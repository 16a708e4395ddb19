import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "@/contract";
import { TrellisError } from "@/executor";
import { errorResponse, HTTP_STATUS_BY_CODE, httpStatusOf, RequestError } from "./errors";

describe("errorResponse", () => {
  it("recognises a Trellis error thrown by another copy of the module (routes are bundled apart)", async () => {
    // What a NotFoundError from another bundle looks like to this one: same brand, different class.
    const foreign = Object.assign(new Error('Run "r1" was not found'), {
      code: "not_found",
      details: [],
      [Symbol.for("trellis.error")]: true,
    });
    const response = errorResponse(foreign);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: "not_found", message: 'Run "r1" was not found', details: [] },
    });
  });

  it("answers an unknown error with a generic 500 that leaks nothing", async () => {
    const response = errorResponse(new Error("password=hunter2 at db.internal:5432"));
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain("hunter2");
  });
});

describe("errorResponse while the database cannot be reached", () => {
  // The shapes pg and Prisma's pg adapter throw (seen against a stopped server and one refusing connections).
  const outages: Array<[string, unknown]> = [
    ["pg, server stopped", Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:5432"), { code: "ECONNREFUSED" })],
    [
      "pg, session ended",
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    ],
    [
      "pg, connections blocked",
      Object.assign(new Error('database "trellis" is not currently accepting connections'), { code: "55000" }),
    ],
    ["pg, connection dropped", new Error("Connection terminated unexpectedly")],
    [
      "Prisma, server stopped",
      Object.assign(new Error(""), {
        code: "P1001",
        meta: { driverAdapterError: { cause: { kind: "DatabaseNotReachable", host: "10.0.0.5" } } },
      }),
    ],
    [
      "Prisma, connections blocked",
      Object.assign(new Error(""), {
        code: "P2039",
        meta: {
          driverAdapterError: {
            cause: {
              kind: "postgres",
              code: "55000",
              message: 'database "trellis" is not currently accepting connections',
            },
          },
        },
      }),
    ],
  ];

  it.each(outages)("%s: 503 database_unavailable with Retry-After, naming no host", async (_name, error) => {
    const response = errorResponse(error);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("database_unavailable");
    expect(body.error.message).not.toContain("10.0.0.5");
  });

  it("keeps a query the database refused (not an outage) a generic 500", () => {
    expect(
      errorResponse(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: "23505" }))
        .status,
    ).toBe(500);
    expect(errorResponse(Object.assign(new Error("object in use"), { code: "55000" })).status).toBe(500);
  });
});

describe("HTTP statuses of error codes", () => {
  it("has a status for every error code of the contract, and no other", () => {
    expect(Object.keys(HTTP_STATUS_BY_CODE).sort()).toEqual([...ERROR_CODES].sort());
  });

  it("answers with the table's status and the error's own message, 5xx included when it is not a 500", async () => {
    const conflict = new TrellisError("version_conflict", "It was changed elsewhere");
    conflict.responseExtra = { currentVersion: 4 };
    const answer = errorResponse(conflict);
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({
      error: { code: "version_conflict", message: "It was changed elsewhere", details: [], currentVersion: 4 },
    });
    const upstream = errorResponse(new RequestError("mcp_unavailable", 'MCP server "files" did not answer'));
    expect(upstream.status).toBe(502);
    expect(await upstream.json()).toMatchObject({
      error: { code: "mcp_unavailable", message: 'MCP server "files" did not answer' },
    });
  });

  it("hides the message of a code that maps to 500", async () => {
    const response = errorResponse(
      new TrellisError("secret_unreadable", 'Secret "X" cannot be decrypted with the key in /data/secret.key'),
    );
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain("/data/secret.key");
  });

  it("answers 500 for a code this server does not know", () => {
    expect(httpStatusOf("from_a_newer_version")).toBe(500);
    expect(httpStatusOf("not_found")).toBe(404);
  });
});
