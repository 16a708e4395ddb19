import { parseSse, type ParsedSse } from "@/lib/runs/__fixtures__/run-test-kit";

/**
 * A visitor's browser for tests that call the chat endpoints directly: it keeps the cookies the
 * answers set and sends them back, as a browser would on the chat's paths.
 */
export class ChatBrowser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly headers: Record<string, string> = {}) {}

  request(method: "GET" | "POST", path: string, body?: unknown): Request {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    return new Request(`http://localhost${path}`, {
      method,
      headers: {
        ...this.headers,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(cookie ? { cookie } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** Keeps the cookies of an answer and hands it back. */
  keep(response: Response): Response {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const at = pair.indexOf("=");
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
}

/** The events of a chat stream, read to its end. */
export async function chatEvents(response: Response): Promise<ParsedSse[]> {
  return parseSse(await response.text());
}
