/**
 * How counts and dollars read wherever people see them, in the browser and in server messages:
 * one helper each, so "1 chunks" and "$0.000000" cannot come back one screen at a time.
 */

const plurals = new Intl.PluralRules("en-US");

/**
 * `1 chunk`, `2 chunks`, `1,024 tokens`: a count with its noun in the right number. `plural` is
 * for nouns that do not just take an "s" (`countOf(2, "process", "processes")`).
 */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString("en-US")} ${plurals.select(count) === "one" ? singular : plural}`;
}

/** Dollars are stored to 1e-10 (executor's roundDollars): every stored digit is shown. */
const DOLLAR_DECIMALS = 10;

/**
 * `$0.00006195`, `$1.50`, `$0.00`: every stored digit, at least to the cent, never a run of zeros
 * that hides a real amount (a figure below 1e-10 dollars, which storage rounds away, reads
 * `<$0.0000000001`).
 */
export function formatDollars(dollars: number): string {
  const sign = dollars < 0 ? "-" : "";
  if (dollars !== 0 && Math.abs(dollars) < 10 ** -DOLLAR_DECIMALS)
    return `${sign}<$0.${"0".repeat(DOLLAR_DECIMALS - 1)}1`;
  const fixed = Math.abs(dollars).toFixed(DOLLAR_DECIMALS);
  const [whole = "0", fraction = ""] = fixed.split(".");
  const trimmed = fraction.replace(/0+$/, "").padEnd(2, "0");
  return `${sign}$${Number(whole).toLocaleString("en-US")}.${trimmed}`;
}

/**
 * An estimate in dollars, rounded as an estimate deserves: cents from a cent up (`$0.15`,
 * `$1,204.50`), two significant digits below (`$0.000022`, not `$0.00002211`), `$0.00` for none.
 */
export function formatEstimatedDollars(dollars: number): string {
  const sign = dollars < 0 ? "-" : "";
  const amount = Math.abs(dollars);
  if (amount === 0) return "$0.00";
  if (amount >= 0.01)
    return `${sign}$${amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  if (amount < 10 ** -DOLLAR_DECIMALS) return formatDollars(dollars);
  const decimals = Math.min(DOLLAR_DECIMALS, 1 - Math.floor(Math.log10(amount)));
  return `${sign}$${amount.toFixed(decimals).replace(/0+$/, "")}`;
}
