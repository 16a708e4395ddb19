import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { peerAddressHeader } from "@/lib/auth/peer-address";

export interface ServedOverHttp {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves `answer` (a dispatcher, an endpoint) on a real HTTP port of 127.0.0.1, for programs that
 * only speak HTTP (Prometheus, an OTLP client): each request becomes a web Request, stamped with
 * its socket's address as the app's server stamps it (lib/auth/peer-address.ts).
 */
export async function serveOverHttp(answer: (request: Request) => Promise<Response>): Promise<ServedOverHttp> {
  const server = http.createServer((incoming, outgoing) => {
    void (async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers))
        if (typeof value === "string") headers.set(name, value);
        else if (Array.isArray(value)) for (const each of value) headers.append(name, each);
      if (incoming.socket.remoteAddress) headers.set(peerAddressHeader(), incoming.socket.remoteAddress);
      const method = incoming.method ?? "GET";
      const body = method === "GET" || method === "HEAD" ? undefined : (Readable.toWeb(incoming) as ReadableStream);
      const request = new Request(`http://127.0.0.1${incoming.url ?? "/"}`, {
        method,
        headers,
        ...(body ? { body, duplex: "half" } : {}),
      } as RequestInit);
      const response = await answer(request);
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      outgoing.writeHead(500);
      outgoing.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
