import { afterEach, describe, expect, it } from "vitest";
// Next's own robots.txt writer, the one that serves app/robots.ts.
import { resolveRobots } from "next/dist/build/webpack/loaders/metadata/resolve-route-data.js";
import { generateMetadata } from "./chat/[chatId]/page";
import robots from "./robots";

const saved = process.env.TRELLIS_PUBLIC_CHAT_INDEXABLE;
afterEach(() => {
  if (saved === undefined) delete process.env.TRELLIS_PUBLIC_CHAT_INDEXABLE;
  else process.env.TRELLIS_PUBLIC_CHAT_INDEXABLE = saved;
});

describe("keeping public chat pages out of search engines", () => {
  it("by default: robots.txt disallows everything and the chat page says noindex", () => {
    delete process.env.TRELLIS_PUBLIC_CHAT_INDEXABLE;
    expect(resolveRobots(robots())).toBe("User-Agent: *\nDisallow: /\n\n");
    expect(generateMetadata().robots).toEqual({ index: false, follow: false });
    process.env.TRELLIS_PUBLIC_CHAT_INDEXABLE = "0";
    expect(resolveRobots(robots())).toBe("User-Agent: *\nDisallow: /\n\n");
  });

  it("with TRELLIS_PUBLIC_CHAT_INDEXABLE=1: the chat pages, and only they, may be indexed", () => {
    process.env.TRELLIS_PUBLIC_CHAT_INDEXABLE = "1";
    expect(resolveRobots(robots())).toBe("User-Agent: *\nAllow: /chat/\nDisallow: /\n\n");
    expect(generateMetadata().robots).toEqual({ index: true, follow: false });
  });

  it("refuses any other value, naming the setting and what it takes", () => {
    process.env.TRELLIS_PUBLIC_CHAT_INDEXABLE = "yes please";
    expect(() => robots()).toThrow(
      'TRELLIS_PUBLIC_CHAT_INDEXABLE must be 1 (let search engines index public chat pages) or 0 (the default), not "yes please"',
    );
  });
});
