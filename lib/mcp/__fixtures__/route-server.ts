import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface RouteServer {
  /** `http://127.0.0.1:<port>`: the route answers every path. */
  origin: string;
  close(): Promise<void>;
}

async function toRequest(message: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(`${origin}${message.url ?? "/"}`, { method: message.method, headers, ...(body ? { body } : {}) });
}

/**
 * A real HTTP server in front of route handlers, as Next serves them: each request becomes a
 * web Request for the handler of its method, and the Response (streamed bodies too) is written
 * back as it comes. A method the route does not export answers 405, as Next does.
 */
export async function serveRoute(handlers: Partial<Record<string, RouteHandler>>): Promise<RouteServer> {
  let origin = "";
  const server = createServer((message, answer) => {
    void (async () => {
      const handler = handlers[message.method ?? "GET"];
      if (!handler) {
        answer.writeHead(405, { allow: Object.keys(handlers).join(", ") }).end();
        return;
      }
      const response = await handler(await toRequest(message, origin), { params: Promise.resolve({}) });
      answer.writeHead(response.status, Object.fromEntries(response.headers));
      const reader = response.body?.getReader();
      for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) answer.write(part.value);
      answer.end();
    })().catch((error: unknown) => {
      answer.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
