import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import busboy from "busboy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch } from "@/net";
import { workflowDocumentSchema } from "@/contract";
import { executeWorkflow } from "@/executor/engine";
import { controlHandlers, lookupHandlers } from "../handlers";
import { lookupBlockType } from "../type-info";
import { apiTraceInput, createApiHandler } from "./handler";
import { apiConfigSchema } from "./definition";

/** What the server made of a request, parsed the way a real server would parse it. */
interface Parsed {
  method: string;
  path: string;
  query: Array<[string, string]>;
  contentType: string | null;
  json?: unknown;
  form?: Array<[string, string]>;
  fields?: Array<[string, string]>;
  files?: Array<{ field: string; filename: string; mimeType: string; text: string }>;
  text?: string;
}

async function parse(request: IncomingMessage): Promise<Parsed> {
  const url = new URL(request.url ?? "/", "http://local");
  const contentType = request.headers["content-type"] ?? null;
  const base: Parsed = {
    method: request.method ?? "",
    path: url.pathname,
    query: [...url.searchParams.entries()],
    contentType,
  };
  if (contentType?.startsWith("multipart/form-data")) {
    const fields: Array<[string, string]> = [];
    const files: NonNullable<Parsed["files"]> = [];
    await new Promise<void>((resolve, reject) => {
      const parser = busboy({ headers: request.headers });
      parser.on("field", (name, value) => fields.push([name, value]));
      parser.on("file", (field, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () =>
          files.push({
            field,
            filename: info.filename ?? "",
            mimeType: info.mimeType,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      });
      parser.on("close", resolve);
      parser.on("error", reject);
      request.pipe(parser);
    });
    return { ...base, fields, files };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  if (contentType === "application/json") return { ...base, json: JSON.parse(raw) as unknown };
  if (contentType === "application/x-www-form-urlencoded")
    return { ...base, form: [...new URLSearchParams(raw).entries()] };
  return { ...base, text: raw };
}

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    parse(request).then(
      (parsed) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(parsed));
      },
      (error: Error) => {
        response.writeHead(400);
        response.end(error.message);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs start -> API block -> response through the engine, so references in the config resolve as in a real run. */
async function send(config: Record<string, unknown>, input: Record<string, unknown> = {}): Promise<Parsed> {
  const port = new URL(origin).port;
  const api = createApiHandler({ fetch: createGuardedFetch({ allowHosts: `127.0.0.1:${port}` }) });
  const document = workflowDocumentSchema.parse({
    name: "Bodies",
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        config: {
          inputs: Object.entries(input).map(([name, value]) => ({
            name,
            type: typeof value === "object" ? "object" : typeof value,
          })),
        },
      },
      { id: "call", type: "api", name: "Call", config },
      { id: "reply", type: "response", name: "Reply", config: { data: "<Call.data>" } },
    ],
    edges: [
      { id: "e1", source: "start", target: "call" },
      { id: "e2", source: "call", target: "reply" },
    ],
  });
  const result = await executeWorkflow({
    document,
    lookupBlockType,
    lookupHandler: lookupHandlers({ ...controlHandlers, api }),
    observer: { event: () => undefined, span: () => undefined },
    runId: "r1",
    workflowId: "w1",
    input,
  });
  if (result.status !== "succeeded") throw Object.assign(new Error(result.error?.message), result.error);
  return result.output as Parsed;
}

describe("api block bodies, as the receiving server parses them", () => {
  it("sends JSON by default, as documents from before bodyType did", async () => {
    const received = await send({
      url: `${origin}/items`,
      method: "POST",
      body: { name: "widget", tags: ["a", "b"], price: 4.5 },
    });
    expect(received).toMatchObject({
      contentType: "application/json",
      json: { name: "widget", tags: ["a", "b"], price: 4.5 },
    });
  });

  it("sends form fields URL-encoded, repeating a key for a list", async () => {
    const received = await send({
      url: `${origin}/login`,
      method: "POST",
      bodyType: "form",
      body: { user: "ada lovelace", note: "a&b=c", tag: ["x", "y"], n: 3 },
    });
    expect(received.contentType).toBe("application/x-www-form-urlencoded");
    expect(received.form).toEqual([
      ["user", "ada lovelace"],
      ["note", "a&b=c"],
      ["tag", "x"],
      ["tag", "y"],
      ["n", "3"],
    ]);
  });

  it("sends multipart fields and a file, with the boundary the body was written with", async () => {
    const data = Buffer.from("id,total\n1,9.50\n").toString("base64");
    const received = await send({
      url: `${origin}/upload`,
      method: "POST",
      bodyType: "multipart",
      body: {
        title: "March report",
        report: { filename: "report.csv", contentType: "text/csv", data },
        note: { filename: "n.txt", data: "data:text/plain,hello%20there" },
      },
    });
    expect(received.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(received.fields).toEqual([["title", "March report"]]);
    expect(received.files).toEqual([
      { field: "report", filename: "report.csv", mimeType: "text/csv", text: "id,total\n1,9.50\n" },
      { field: "note", filename: "n.txt", mimeType: "text/plain", text: "hello there" },
    ]);
  });

  it("sends text as text/plain unless a Content-Type header says otherwise", async () => {
    expect(await send({ url: `${origin}/t`, method: "POST", bodyType: "text", body: "hello" })).toMatchObject({
      contentType: "text/plain; charset=utf-8",
      text: "hello",
    });
    // Text that happens to be JSON (the inspector's box stores it parsed) goes out as that text.
    expect(await send({ url: `${origin}/t`, method: "POST", bodyType: "text", body: { a: 1 } })).toMatchObject({
      text: '{"a":1}',
    });
    const csv = await send({
      url: `${origin}/t`,
      method: "POST",
      bodyType: "text",
      body: "a,b",
      headers: { "Content-Type": "text/csv" },
    });
    expect(csv).toMatchObject({ contentType: "text/csv", text: "a,b" });
  });

  it("adds query rows to the URL's own query, encoded, with references resolved", async () => {
    const received = await send(
      {
        url: `${origin}/search?lang=en`,
        query: { q: "<Start.term>", page: "<Start.page>", tag: ["a b", "c&d"], empty: "" },
      },
      { term: "red shoes & socks", page: 2 },
    );
    expect(received.query).toEqual([
      ["lang", "en"],
      ["q", "red shoes & socks"],
      ["page", "2"],
      ["tag", "a b"],
      ["tag", "c&d"],
      ["empty", ""],
    ]);
  });

  it("resolves references inside form and multipart values", async () => {
    const outputs = {
      email: "ada@example.com",
      file: { filename: "hello.txt", data: Buffer.from("hi").toString("base64") },
    };
    const form = await send(
      {
        url: `${origin}/f`,
        method: "POST",
        bodyType: "form",
        body: { email: "<Start.email>", greeting: "Dear <Start.email>" },
      },
      outputs,
    );
    expect(form.form).toEqual([
      ["email", "ada@example.com"],
      ["greeting", "Dear ada@example.com"],
    ]);
    const multipart = await send(
      { url: `${origin}/m`, method: "POST", bodyType: "multipart", body: { attachment: "<Start.file>" } },
      outputs,
    );
    expect(multipart.files).toEqual([
      { field: "attachment", filename: "hello.txt", mimeType: "application/octet-stream", text: "hi" },
    ]);
  });
});

describe("api block body errors", () => {
  it.each([
    [
      { bodyType: "form", body: "a=1" },
      'With bodyType "form", body must be key/value fields (an object such as {"name": "Ada"}), not string',
    ],
    [
      { bodyType: "form", body: { deep: { a: 1 } } },
      'body.deep: a form field must be text, a number or true/false; use bodyType "json" or "multipart" for nested data',
    ],
    [
      { bodyType: "multipart", body: { file: { name: "x" } } },
      "body.file: a multipart field must be text, a number, true/false or a file { filename, data (base64 or a data: URL), contentType? }",
    ],
    [
      { bodyType: "multipart", body: { file: { filename: "x", data: "not base64!" } } },
      "body.file: a file's data must be base64 or a data: URL",
    ],
    [
      { bodyType: "multipart", body: { file: { filename: "x", data: "data:text/plain,%E0%A4%A" } } },
      "body.file: the file's data: URL is not validly percent-encoded",
    ],
    [
      { bodyType: "multipart", body: { a: "1" }, headers: { "Content-Type": "multipart/form-data" } },
      'With bodyType "multipart", Trellis sets Content-Type',
    ],
  ])("refuses %j, naming what is wrong", async (config, message) => {
    await expect(send({ url: `${origin}/x`, method: "POST", ...config })).rejects.toMatchObject({
      code: "invalid_config",
      message: expect.stringContaining(message) as unknown,
    });
  });

  it("refuses an unknown body type when the workflow is saved", () => {
    const parsed = apiConfigSchema.safeParse({ url: "https://api.example.com", bodyType: "xml" });
    expect(parsed.error?.issues[0]?.path).toEqual(["bodyType"]);
  });

  it("keeps credential query parameters and those filled from secrets out of traces", () => {
    const config = apiConfigSchema.parse({
      url: "https://api.example.com",
      query: { api_key: "k-1", account: "acct-secret", q: "shoes" },
    });
    const traced = apiTraceInput(config, { query: { account: "{{ACCOUNT_ID}}" } });
    expect(traced.query).toEqual({ api_key: "[redacted]", account: "[redacted]", q: "shoes" });
  });
});
