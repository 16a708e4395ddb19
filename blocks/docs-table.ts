import { blockDefinitions } from "./definitions";
import type { BlockDefinition } from "./types";

/**
 * docs/CONTRACT.md's table of block types, written from the definitions (`docs`), so a block type
 * is described where it is defined. `npm run docs:blocks` rewrites the table between its markers;
 * blocks/docs-table.test.ts fails when the committed table differs from this.
 */

export const BLOCK_TABLE_START =
  "<!-- block-table: written by `npm run docs:blocks` from each blocks/<type>/definition.ts (`docs`); edit those, not this table -->";
export const BLOCK_TABLE_END = "<!-- /block-table -->";

function row(definition: BlockDefinition): string {
  const type = definition.docs.note ? `${definition.type} (${definition.docs.note})` : definition.type;
  return `| ${type} | ${definition.docs.config} | ${definition.docs.output} |`;
}

/** The table, one row per block type in the registry's order. */
export function blockTable(definitions: Readonly<Record<string, BlockDefinition>> = blockDefinitions): string {
  return ["| type | config | output |", "|---|---|---|", ...Object.values(definitions).map(row)].join("\n");
}

/** The markdown with the text between the table's markers replaced by the table; throws when the markers are missing. */
export function withBlockTable(markdown: string, table: string = blockTable()): string {
  const start = markdown.indexOf(BLOCK_TABLE_START);
  const end = markdown.indexOf(BLOCK_TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`The block table's markers are missing: ${BLOCK_TABLE_START} ... ${BLOCK_TABLE_END}`);
  return `${markdown.slice(0, start + BLOCK_TABLE_START.length)}\n${table}\n${markdown.slice(end)}`;
}
