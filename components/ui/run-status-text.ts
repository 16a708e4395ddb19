/**
 * What a run's status badge says beyond the status: its place in the queue while it waits for a
 * process (docs/CONTRACT.md section 11), and why it says Resumed. Shared by the editor's toolbar
 * and console and the Runs page.
 */

/** `1st`, `2nd`, `3rd`, `4th`, `11th`, `12th`, `13th`, `21st`, `1,002nd`. */
export function ordinal(n: number): string {
  const tens = Math.abs(n) % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][Math.abs(n) % 10] ?? "th");
  return `${n.toLocaleString("en-US")}${suffix}`;
}

/** "Queued, 3rd in line", or "Queued" while the position is not known. */
export function queueLabel(position: number | undefined): string {
  return position === undefined ? "Queued" : `Queued, ${ordinal(position)} in line`;
}

/** The longer sentence for a tooltip or a screen reader. */
export function queueDescription(position: number | undefined): string {
  const waiting = "Waiting for a process to take the run";
  if (position === undefined) return `${waiting}.`;
  const ahead = position - 1;
  return ahead === 0
    ? `${waiting}; no run waits ahead of it.`
    : `${waiting}; ${ahead.toLocaleString("en-US")} ${ahead === 1 ? "run waits" : "runs wait"} ahead of it.`;
}

/** The Resumed badge's tooltip. */
export function resumedDescription(recoveries: number): string {
  const sentence = "Its process stopped; another process went on from the finished blocks";
  return recoveries > 1 ? `${sentence} (${recoveries} times).` : `${sentence}.`;
}
