import { describe, expect, it } from "vitest";
import { BURST_STARTS_IN_FLIGHT, RunIntake } from "../run-intake";
import { HandOver, MAX_PENDING_HAND_OVERS } from "./hand-over";

function recordingQueue(failFor: Set<string> = new Set()) {
  const enqueued: string[] = [];
  return {
    enqueued,
    async enqueue(runId: string) {
      if (failFor.has(runId)) throw new Error("connection refused");
      enqueued.push(runId);
    },
  };
}

describe("hand-over of accepted runs", () => {
  it("hands every stored run to the queue after its start was answered, in the order they were accepted", async () => {
    const queue = recordingQueue();
    const handOver = new HandOver(queue, new RunIntake());
    for (let index = 0; index < 10; index++) handOver.submit(`run-${index}`, "ws");
    expect(queue.enqueued).toEqual([]);
    await handOver.flush();
    expect(queue.enqueued).toEqual(Array.from({ length: 10 }, (_, index) => `run-${index}`));
  });

  /** `count` starts being accepted, each until `answer` is called. */
  function acceptStarts(intake: RunIntake, count: number) {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const accepting = Promise.all(Array.from({ length: count }, () => intake.accept(() => answered)));
    return { answer, accepting };
  }

  it("during a burst of starts, waits until they are answered, then hands over", async () => {
    const queue = recordingQueue();
    const intake = new RunIntake();
    const handOver = new HandOver(queue, intake);
    const burst = acceptStarts(intake, BURST_STARTS_IN_FLIGHT + 1);
    handOver.submit("run-1", "ws");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queue.enqueued).toEqual([]);
    burst.answer();
    await burst.accepting;
    await handOver.flush();
    expect(queue.enqueued).toEqual(["run-1"]);
  });

  it("under steady load (a few starts being accepted), hands over without waiting for them", async () => {
    const queue = recordingQueue();
    const intake = new RunIntake();
    const handOver = new HandOver(queue, intake);
    const steady = acceptStarts(intake, 3);
    handOver.submit("run-1", "ws");
    await handOver.flush();
    expect(queue.enqueued).toEqual(["run-1"]);
    expect(intake.busy).toBe(true);
    steady.answer();
    await steady.accepting;
  });

  it("names a run whose hand-over failed and goes on with the others (the recovery sweep hands it over later)", async () => {
    const queue = recordingQueue(new Set(["run-2"]));
    const logged: string[] = [];
    const handOver = new HandOver(queue, new RunIntake(), (message) => logged.push(message));
    ["run-1", "run-2", "run-3"].forEach((runId) => handOver.submit(runId, "ws"));
    await handOver.flush();
    expect(queue.enqueued).toEqual(["run-1", "run-3"]);
    expect(logged).toEqual([
      expect.stringMatching(
        /^run run-2 could not be handed to the queue now \(the recovery sweep will\): connection refused$/,
      ),
    ]);
  });

  it("keeps at most its bound of hand-overs waiting and says which runs it left to the sweep", async () => {
    const logged: string[] = [];
    const queue = recordingQueue();
    const intake = new RunIntake();
    const { answer, accepting } = acceptStarts(intake, BURST_STARTS_IN_FLIGHT + 1);
    const handOver = new HandOver(queue, intake, (message) => logged.push(message));
    for (let index = 0; index < MAX_PENDING_HAND_OVERS + 2; index++) handOver.submit(`run-${index}`, "ws");
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain(`run run-${MAX_PENDING_HAND_OVERS} stays queued for the recovery sweep`);
    answer();
    await accepting;
    await handOver.flush();
    expect(queue.enqueued).toHaveLength(MAX_PENDING_HAND_OVERS);
  });
});
