import { z } from "zod";

/**
 * How every list of the REST API pages (docs/CONTRACT.md section 5): `?limit=N&cursor=<opaque>` in,
 * `{ <items>: [...], nextCursor }` out, the items under the key the list always had, so a client
 * that reads only the items keeps working and sees the first page.
 */

/** Items on a page when the request names no `limit`. */
export const PAGE_LIMIT_DEFAULT = 50;
/** The most a request may ask for: a larger `limit` is refused (400) rather than cut, so a script never takes a short page for the whole. */
export const PAGE_LIMIT_MAX = 200;

export interface PageRequest {
  /** 1 to PAGE_LIMIT_MAX; PAGE_LIMIT_DEFAULT when left out. */
  limit?: number;
  /** The `nextCursor` of the page before; left out (or null) for the first page. */
  cursor?: string | null;
}

/** `{ <key>: [...items], nextCursor }`: one page of a list, the cursor of the next page null on the last. */
export function pageSchema<Key extends string, Item extends z.ZodType>(key: Key, item: Item) {
  return z.object({ [key]: z.array(item), nextCursor: z.string().nullable() } as { [K in Key]: z.ZodArray<Item> } & {
    nextCursor: z.ZodNullable<z.ZodString>;
  });
}

/** A page of a list of `Item`s under `Key`: the type of what pageSchema(key, itemSchema) reads. */
export type ListPage<Key extends string, Item> = { [K in Key]: Item[] } & { nextCursor: string | null };
