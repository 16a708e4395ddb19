import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { WorkspaceRole } from "@/contract";
import type { Member } from "@/lib/auth";
import type { TestDatabase } from "@/lib/db/test-database";
import { multipartRequest } from "./multipart-request";

/** Shared by the knowledge tests: workspaces, members calling endpoints, requests, and an embeddings server. */

export async function createWorkspace(database: TestDatabase, name: string): Promise<string> {
  return (await database.prisma.workspace.create({ data: { name } })).id;
}

/** A member of a workspace as route() hands one to an endpoint; no user row is needed. */
export function memberOf(workspaceId: string, role: WorkspaceRole = "editor"): Member {
  return {
    userId: `user-${role}`,
    email: `${role}@example.com`,
    name: role,
    via: "session",
    workspace: { id: workspaceId, role },
  };
}

/** A multipart upload of files (and extra form fields) as the browser sends it. */
export function upload(
  files: Array<{ name: string; content: BlobPart; type?: string }>,
  extra: Record<string, string> = {},
): Promise<Request> {
  const form = new FormData();
  for (const file of files)
    form.append("file", new Blob([file.content], { type: file.type ?? "application/octet-stream" }), file.name);
  for (const [key, value] of Object.entries(extra)) form.append(key, value);
  return multipartRequest(form, "http://localhost/api/knowledge-bases/x/documents");
}

/** A JSON POST as the browser's API client sends it. */
export const postJson = (body: unknown) =>
  new Request("http://localhost", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

export const get = () => new Request("http://localhost");
export const del = () => new Request("http://localhost", { method: "DELETE" });

export interface EmbeddingServer {
  /** The OpenAI base URL, ending in /v1. */
  baseUrl: string;
  /** Each /v1/embeddings request's Authorization header and inputs, in order. */
  received: Array<{ authorization: string | undefined; input: string[] }>;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

/** A local server speaking OpenAI's /v1/embeddings wire format, recording who called with what. */
export async function startEmbeddingServer(): Promise<EmbeddingServer> {
  const received: EmbeddingServer["received"] = [];
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.parse(await readBody(request)) as { model: string; input: string[] };
    received.push({ authorization: request.headers.authorization, input: body.input });
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        object: "list",
        model: body.model,
        data: body.input.map((text, index) => ({ object: "embedding", index, embedding: [text.length, 1, 0] })),
        usage: { prompt_tokens: body.input.length, total_tokens: body.input.length },
      }),
    );
  };
  // A request the server fails on answers 500, which fails the test that sent it.
  const server = createServer(
    (request, response) =>
      void answer(request, response).catch((error: unknown) => response.writeHead(500).end(String(error))),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
