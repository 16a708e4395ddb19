import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_JSON_DEPTH } from "@/contract";
import { bindOperation } from "./endpoint";
import { RequestError } from "./errors";
import { parseUntrustedJson, readJsonRequest } from "./read-json";
import { testMember } from "./test-members";

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** Any endpoint reading a JSON body: the workspace rename stands in for all of them. */
const rename = bindOperation(
  { operationId: "renameWorkspace", path: "/api/workspaces/{workspaceId}", access: "member", role: "admin" },
  async (request) => {
    const body = await readJsonRequest(request, z.object({ name: z.string(), tags: z.unknown().optional() }), {
      subject: "The workspace",
      maxBytes: 1024 * 1024,
    });
    return Response.json(body);
  },
);
const send = (raw: string) =>
  rename(
    new Request("http://localhost/api/workspaces/w1", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: raw,
    }),
    {},
    testMember("w1", "admin"),
  );

describe("readJsonRequest", () => {
  it("answers 400 invalid_json, never 500, to a body nested past the limit, before parsing it", async () => {
    const response = await send(`{"name":"Team","tags":${nested(100_000)}}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "invalid_json",
        message: `The request body is nested deeper than the limit of ${MAX_JSON_DEPTH} levels (at tags[0][0][0][0][0]…[0][0]).`,
        details: [
          {
            path: "tags[0][0][0][0][0]…[0][0]",
            message: `is nested deeper than the limit of ${MAX_JSON_DEPTH} levels`,
          },
        ],
      },
    });
  });

  it("keeps a body within the limit, and still says when text is not JSON", async () => {
    const within = await send(`{"name":"Team","tags":${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(within.status).toBe(200);
    const broken = await send('{"name": "Team"');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { code: string; message: string } }).error.message).toMatch(
      /^The request body is not valid JSON: /,
    );
  });
});

describe("parseUntrustedJson (for JSON inside a form field, such as an upload's metadata)", () => {
  const parseMetadata = (text: string) => {
    try {
      return parseUntrustedJson(text, { subject: "The metadata field", path: "metadata" });
    } catch (error) {
      return error as RequestError;
    }
  };

  it("parses an object and names the field in every refusal", () => {
    expect(parseMetadata('{"source":"wiki","depth":{"a":[1]}}')).toEqual({ source: "wiki", depth: { a: [1] } });
    expect(parseMetadata(`{"a":${nested(500)}}`)).toMatchObject({
      code: "invalid_json",
      details: [{ path: "metadata.a[0][0][0][0][0]…[0][0]" }],
    });
    expect(parseMetadata(nested(500))).toMatchObject({ details: [{ path: "metadata[0][0][0][0][0][0]…[0][0]" }] });
    expect(parseMetadata('{"__proto__":{"admin":true}}')).toMatchObject({
      code: "invalid_request",
      message:
        'The metadata field uses "__proto__" as a key (at metadata.__proto__), which is reserved: copying it would replace an object\'s prototype.',
    });
    expect(parseMetadata("{nope")).toMatchObject({
      code: "invalid_json",
      details: [{ path: "metadata", message: "is not valid JSON" }],
    });
  });
});
