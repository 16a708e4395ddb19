import "server-only";
import { z } from "zod";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, type ListPage } from "@/contract";
import type { KeysetPage, KeysetResult } from "@/lib/db";
import { RequestError } from "./errors";

/**
 * `?limit=&cursor=` of every list endpoint (contract/pagination.ts). A cursor is base64url JSON of
 * the list's name and the position of the last item shown: opaque to clients, and checked on the
 * way back in, so a cursor edited by hand or carried to another list answers 400 instead of
 * reaching a query. It positions a page and nothing more: every query still scopes by the
 * caller's workspace, so a cursor from elsewhere can only select among the caller's own rows.
 */

/** No position is near this long; a longer cursor is refused before it is decoded. */
const MAX_CURSOR_LENGTH = 2048;

const LIMIT_RULE = `must be a whole number from 1 to ${PAGE_LIMIT_MAX}`;
const CURSOR_RULE = "must be the nextCursor of the page before, unchanged";

function invalidCursor(why: string): RequestError {
  return new RequestError("invalid_request", `The cursor ${why}: pass the nextCursor of the page before, unchanged.`, [
    { path: "cursor", message: CURSOR_RULE },
  ]);
}

/** The `limit` query parameter: the default when absent, 400 naming the maximum when it is not one of 1 to PAGE_LIMIT_MAX. */
export function readLimit(value: string | null): number {
  if (value === null || value === "") return PAGE_LIMIT_DEFAULT;
  const limit = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= PAGE_LIMIT_MAX)) {
    throw new RequestError(
      "invalid_request",
      `limit ${LIMIT_RULE}; got "${value.slice(0, 20)}". Follow nextCursor for more.`,
      [{ path: "limit", message: LIMIT_RULE }],
    );
  }
  return limit;
}

/** How one list pages: reads a request's page and writes the answer, its cursors naming this list. */
export interface ListPaging<Position> {
  read(request: Request): KeysetPage<Position>;
  answer<Key extends string, Item>(key: Key, result: KeysetResult<Item, Position>): ListPage<Key, Item>;
  encode(position: Position): string;
  decode(cursor: string): Position;
}

/** The paging of the list named `list`, whose positions `position` checks (a cursor's contents are the client's to forge). */
export function listPaging<Position>(list: string, position: z.ZodType<Position>): ListPaging<Position> {
  const encode = (at: Position) => Buffer.from(JSON.stringify([list, at]), "utf8").toString("base64url");
  const decode = (cursor: string): Position => {
    if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
      throw invalidCursor("is not one this server made");
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    } catch {
      throw invalidCursor("is not one this server made");
    }
    if (!Array.isArray(decoded) || decoded.length !== 2) throw invalidCursor("is not one this server made");
    if (decoded[0] !== list) throw invalidCursor("was made for another list");
    const parsed = position.safeParse(decoded[1]);
    if (!parsed.success) throw invalidCursor("is not one this server made");
    return parsed.data;
  };
  return {
    encode,
    decode,
    read(request) {
      const query = new URL(request.url).searchParams;
      const cursor = query.get("cursor");
      return { limit: readLimit(query.get("limit")), ...(cursor ? { after: decode(cursor) } : {}) };
    },
    answer<Key extends string, Item>(key: Key, result: KeysetResult<Item, Position>) {
      return { [key]: result.items, nextCursor: result.next === null ? null : encode(result.next) } as ListPage<
        Key,
        Item
      >;
    },
  };
}

/** A position in a (time, id) order, as a cursor carries it. */
export const timeAndIdPosition = z.tuple([z.iso.datetime(), z.string().min(1).max(200)]).readonly();
