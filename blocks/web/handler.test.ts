import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlockExecutionError, OutboundRefusedError } from "@/core";
import { createGuardedFetch } from "@/net";
import { startLocalServer, type LocalServer } from "@/net/__fixtures__/local-server";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { withConfigParsing } from "../__fixtures__/with-config-parsing";
import { createWebHandler } from "./handler";

const paragraph = (n: number) =>
  `<p>Paragraph ${n}: the quick brown fox jumps over the lazy dog, again and again, because articles need enough words to look like articles.</p>`;

let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    const url = new URL(request.url, "http://local");
    const origin = `http://127.0.0.1:${(request.headers.host ?? "").split(":")[1]}`;
    switch (url.pathname) {
      case "/article":
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return response.end(`<!doctype html><html><head><title>Fox News Today | Site</title>
          <link rel="stylesheet" href="${origin}/style.css"><script>fetch("${origin}/beacon")</script></head>
          <body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
          <article><h1>The Fox Story</h1>${[1, 2, 3, 4, 5].map(paragraph).join("")}<img src="${origin}/pixel.png"></article>
          <footer>Copyright 2025, all rights reserved</footer></body></html>`);
      case "/latin1":
        response.writeHead(200, { "content-type": "text/html; charset=windows-1252" });
        return response.end(
          Buffer.from(
            "<html><head><title>Caf\xe9</title></head><body><p>Un caf\xe9 cr\xe8me.</p></body></html>",
            "latin1",
          ),
        );
      case "/plain":
        response.writeHead(200, { "content-type": "text/plain" });
        return response.end("just text\n");
      case "/image":
        response.writeHead(200, { "content-type": "image/png" });
        return response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      case "/moved":
        response.writeHead(301, { location: "/article" });
        return response.end();
      default:
        response.writeHead(404, { "content-type": "text/html" });
        return response.end("<h1>Not found</h1>");
    }
  });
});

afterAll(() => server.close());

function read(config: Record<string, unknown>, allowHosts = `127.0.0.1:${server.port}`) {
  const handler = withConfigParsing("web", createWebHandler({ fetch: createGuardedFetch({ allowHosts }) }));
  return handler({ config, inputs: {}, context: createInMemoryHandlerContext() });
}

describe("web block handler", () => {
  it("returns the readable text and title of an article, without navigation or scripts", async () => {
    const { output } = await read({ url: `${server.origin}/moved` });
    expect(output.url).toBe(`${server.origin}/article`);
    expect(output.status).toBe(200);
    expect(output.title).toContain("Fox");
    const text = output.text as string;
    expect(text).toContain("Paragraph 1: the quick brown fox");
    expect(text).toContain("Paragraph 5:");
    expect(text).not.toContain("About");
    expect(text).not.toContain("fetch(");
    expect(text.split("\n\n").length).toBeGreaterThanOrEqual(5);
    expect(output.truncated).toBe(false);
  });

  it("neither runs the page's scripts nor loads its subresources", async () => {
    const before = server.received.length;
    await read({ url: `${server.origin}/article` });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.received.slice(before).map((request) => request.url)).toEqual(["/article"]);
  });

  it("decodes the page's declared charset", async () => {
    const { output } = await read({ url: `${server.origin}/latin1` });
    expect(output.title).toBe("Café");
    expect(output.text).toBe("Un café crème.");
  });

  it("cuts the text at maxChars and says so", async () => {
    const { output } = await read({ url: `${server.origin}/article`, maxChars: 100 });
    expect((output.text as string).length).toBe(100);
    expect(output.truncated).toBe(true);
  });

  it("passes plain text through and refuses what is not text", async () => {
    expect((await read({ url: `${server.origin}/plain` })).output.text).toBe("just text");
    const error = await read({ url: `${server.origin}/image` }).catch((caught: unknown) => caught);
    expect((error as BlockExecutionError).code).toBe("unsupported_content");
    expect((error as Error).message).toContain("image/png");
  });

  it("fails on a 404 page", async () => {
    await expect(read({ url: `${server.origin}/nope` })).rejects.toThrow(`127.0.0.1:${server.port}/nope answered 404`);
  });

  it("goes through the outbound guard", async () => {
    await expect(read({ url: `${server.origin}/article` }, "")).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(read({ url: "http://[::ffff:169.254.169.254]/" }, "")).rejects.toBeInstanceOf(OutboundRefusedError);
  });
});
