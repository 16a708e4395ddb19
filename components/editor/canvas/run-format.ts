/** How prices read in the model picker. Run figures are formatted by components/runs/format.ts. */

/** A price per million tokens, as the model picker shows it. */
export function formatPricePerMillion(dollars: number): string {
  return dollars === 0 ? "$0" : `$${Number(dollars.toPrecision(3))}`;
}
