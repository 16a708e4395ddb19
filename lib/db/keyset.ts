/**
 * Keyset paging, the one shape every list query takes: a page is the rows after a position in the
 * list's order (`WHERE (sort key, id) < (...)`), never an OFFSET, so rows inserted while a client
 * walks the pages neither shift nor repeat what it has seen, and a deep page costs what the first does.
 */

/** What a list asks storage for: at most `limit` items after `after` in the list's order (from the start without one). */
export interface KeysetPage<Position> {
  limit: number;
  after?: Position;
}

/** A page read from storage: its items, and the position of its last item when more follow (null on the last page). */
export interface KeysetResult<Item, Position> {
  items: Item[];
  next: Position | null;
}

/** A position in a list ordered by a time then the id (ISO 8601 instant, id): the last item a page showed. */
export type TimeAndId = readonly [at: string, id: string];

/**
 * Rows read with `take: limit + 1` (or `LIMIT limit + 1`): the extra row only tells that another
 * page follows, and is not shown.
 */
export function keysetResult<Row, Item, Position>(
  rows: readonly Row[],
  limit: number,
  toItem: (row: Row) => Item,
  positionOf: (row: Row) => Position,
): KeysetResult<Item, Position> {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { items: shown.map(toItem), next: rows.length > limit && last !== undefined ? positionOf(last) : null };
}

/** The position of a row in a (time, id) order. */
export const timeAndIdOf = (at: Date | string, id: string): TimeAndId => [
  at instanceof Date ? at.toISOString() : at,
  id,
];

type Bound<Value> = { lt: Value } | { gt: Value };

/**
 * Prisma's spelling of the row comparison `(time, id) < (at, id)` (`>` for a list going up): the
 * rows after `position` in a (time, id) order, to spread into a `where`; nothing without a position.
 */
export function afterTimeAndId<Time extends string, Id extends string>(
  time: Time,
  id: Id,
  order: "asc" | "desc",
  position: TimeAndId | null | undefined,
): { OR?: Array<Record<Time, Bound<Date>> | (Record<Time, Date> & Record<Id, Bound<string>>)> } {
  if (!position) return {};
  const bound = order === "desc" ? "lt" : "gt";
  const at = new Date(position[0]);
  const before = { [time]: { [bound]: at } } as Record<Time, Bound<Date>>;
  const tied = { [time]: at, [id]: { [bound]: position[1] } } as Record<Time, Date> & Record<Id, Bound<string>>;
  return { OR: [before, tied] };
}
