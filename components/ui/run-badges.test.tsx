import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ResumedBadge, RunStatusBadge } from "./run-badges";
import { ordinal, queueDescription, queueLabel, resumedDescription } from "./run-status-text";

describe("a queued run's place in line", () => {
  it("writes English ordinals, teens included", () => {
    expect([1, 2, 3, 4, 9, 10].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "9th", "10th"]);
    expect([11, 12, 13, 14].map(ordinal)).toEqual(["11th", "12th", "13th", "14th"]);
    expect([21, 22, 23, 101, 111, 112, 1002].map(ordinal)).toEqual([
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
      "112th",
      "1,002nd",
    ]);
  });

  it("says where the run waits, and only 'Queued' while that is not known", () => {
    expect(queueLabel(3)).toBe("Queued, 3rd in line");
    expect(queueLabel(1)).toBe("Queued, 1st in line");
    expect(queueLabel(undefined)).toBe("Queued");
    expect(queueDescription(1)).toBe("Waiting for a process to take the run; no run waits ahead of it.");
    expect(queueDescription(2)).toBe("Waiting for a process to take the run; 1 run waits ahead of it.");
    expect(queueDescription(1201)).toBe("Waiting for a process to take the run; 1,200 runs wait ahead of it.");
    expect(queueDescription(undefined)).toBe("Waiting for a process to take the run.");
  });

  it("is what the status badge says of a queued run, in line or not", () => {
    const inLine = renderToStaticMarkup(
      <RunStatusBadge status="queued" inLine={{ position: 2 }} testId="run-status" />,
    );
    expect(inLine).toContain(">Queued, 2nd in line<");
    expect(inLine).toContain('title="Waiting for a process to take the run; 1 run waits ahead of it."');
    expect(inLine).toContain('data-queue-position="2"');
    // The Runs page's badge says the status alone.
    expect(renderToStaticMarkup(<RunStatusBadge status="queued" />)).toContain(">queued<");
    expect(renderToStaticMarkup(<RunStatusBadge status="failed" />)).toContain('data-status="failed"');
  });
});

describe("a run resumed by another process", () => {
  it("explains the badge, with the count when it happened more than once", () => {
    expect(resumedDescription(1)).toBe("Its process stopped; another process went on from the finished blocks.");
    expect(resumedDescription(3)).toBe(
      "Its process stopped; another process went on from the finished blocks (3 times).",
    );
  });

  it("shows the Resumed badge only once the run was taken over, with the count past one", () => {
    expect(renderToStaticMarkup(<ResumedBadge recoveries={0} />)).toBe("");
    const twice = renderToStaticMarkup(<ResumedBadge recoveries={2} testId="resumed" />);
    expect(twice).toContain("Resumed");
    expect(twice).toContain("×2");
    expect(twice).toContain("(2 times).");
  });
});
