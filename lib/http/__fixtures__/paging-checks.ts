import { expect } from "vitest";
import { z } from "zod";
import { PAGE_LIMIT_MAX } from "@/contract";
import { listPaging } from "../pagination";

/**
 * What every list endpoint's test asks of its paging (contract/pagination.ts), so each test says
 * only how to make items and call its endpoint. `fetchPage` gets the query string, `?` included.
 */
export type PageFetch = (query: string) => Promise<Response>;

type PageBody = Record<string, unknown> & { nextCursor: string | null };

/** Fetches and reads one page, expecting 200. */
export async function readPage(fetchPage: PageFetch, query: Record<string, string>): Promise<PageBody> {
  const response = await fetchPage(`?${new URLSearchParams(query)}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as PageBody;
}

/**
 * Every item of a list, `limit` at a time by its cursors, with `filters` beside them. Every page but
 * the last is full, and the last says so with a null cursor.
 */
export async function walkPages<Item>(
  fetchPage: PageFetch,
  key: string,
  limit: number,
  filters: Record<string, string> = {},
): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const body = await readPage(fetchPage, { ...filters, limit: String(limit), ...(cursor ? { cursor } : {}) });
    const page = body[key] as Item[];
    if (body.nextCursor !== null) expect(page).toHaveLength(limit);
    else expect(page.length).toBeLessThanOrEqual(limit);
    items.push(...page);
    cursor = body.nextCursor;
    expect(++pages, "the walk never ends").toBeLessThan(1000);
  } while (cursor);
  return { items, pages };
}

/** The first page's cursor (`limit` items in), to carry somewhere else. */
export async function firstCursor(fetchPage: PageFetch, limit: number): Promise<string> {
  const { nextCursor } = await readPage(fetchPage, { limit: String(limit) });
  expect(nextCursor).toEqual(expect.any(String));
  return nextCursor!;
}

async function expectRefused(response: Response, path: "cursor" | "limit", message: string): Promise<void> {
  expect(response.status).toBe(400);
  const { error } = (await response.json()) as {
    error: { code: string; message: string; details: Array<{ path: string }> };
  };
  expect(error.code).toBe("invalid_request");
  expect(error.details.map((detail) => detail.path)).toEqual([path]);
  expect(error.message).toContain(message);
}

/**
 * A list's refusals, each 400 `invalid_request` naming the parameter: a cursor that is not base64url
 * JSON, one edited by hand, one made for another list, and a limit outside 1 to the maximum (the
 * maximum itself is served).
 */
export async function expectPagingRefusals(fetchPage: PageFetch): Promise<void> {
  const forged = Buffer.from(JSON.stringify(["runs", { id: "anything" }])).toString("base64url");
  const otherList = listPaging("another-list", z.tuple([z.string()])).encode(["x"]);
  for (const cursor of ["not a cursor!", "e30", forged])
    await expectRefused(await fetchPage(`?cursor=${encodeURIComponent(cursor)}`), "cursor", "cursor");
  await expectRefused(await fetchPage(`?cursor=${otherList}`), "cursor", "made for another list");
  for (const limit of [String(PAGE_LIMIT_MAX + 1), "0", "-1", "2.5", "ten"]) {
    await expectRefused(await fetchPage(`?limit=${limit}`), "limit", `from 1 to ${PAGE_LIMIT_MAX}`);
  }
  expect((await fetchPage(`?limit=${PAGE_LIMIT_MAX}`)).status).toBe(200);
}

/** Items in a list's documented (time, id) order: newest first, or oldest first with "asc". */
export function expectTimeAndIdOrder<Item>(
  items: Item[],
  time: (item: Item) => string,
  id: (item: Item) => string,
  order: "asc" | "desc",
): void {
  const compare = (a: Item, b: Item) => (time(a) === time(b) ? (id(a) < id(b) ? -1 : 1) : time(a) < time(b) ? -1 : 1);
  const sorted = [...items].sort((a, b) => (order === "asc" ? compare(a, b) : compare(b, a)));
  expect(items.map(id)).toEqual(sorted.map(id));
}

/** Lets the clock move past the millisecond, so rows made before and after never share a time (and a cursor's side is certain). */
export const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 3));
