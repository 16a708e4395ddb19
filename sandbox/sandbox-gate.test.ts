import { describe, expect, it } from "vitest";
import { SandboxGate, type SandboxSlot } from "./sandbox-gate";

/** A gate on a clock the test moves, and a record of the order in which requests got in. */
function gateWith(limits: { concurrency: number; memoryMb: number }) {
  let now = 0;
  const gate = new SandboxGate(limits, () => now);
  const admitted: string[] = [];
  const slots = new Map<string, SandboxSlot>();
  const request = (name: string, footprintMb: number, options: Parameters<SandboxGate["acquire"]>[1] = {}) =>
    gate.acquire(footprintMb, options).then((slot) => {
      admitted.push(name);
      slots.set(name, slot);
      return slot;
    });
  const release = async (name: string) => {
    slots.get(name)!.release();
    // Admission resolves promises; let their callbacks run before looking.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { gate, admitted, request, release, advance: (ms: number) => void (now += ms) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("SandboxGate", () => {
  it("runs at most `concurrency` sandboxes, then admits the others in arrival order", async () => {
    const { gate, admitted, request, release } = gateWith({ concurrency: 2, memoryMb: 1000 });
    for (const name of ["a", "b", "c", "d"]) void request(name, 100);
    await settle();
    expect(admitted).toEqual(["a", "b"]);
    expect(gate.stats()).toMatchObject({ running: 2, waiting: 2 });
    await release("b");
    expect(admitted).toEqual(["a", "b", "c"]);
    await release("a");
    expect(admitted).toEqual(["a", "b", "c", "d"]);
    expect(gate.stats().peakRunning).toBe(2);
  });

  it("keeps the memory reserved within its total, and a smaller request does not pass a larger one waiting", async () => {
    const { gate, admitted, request, release } = gateWith({ concurrency: 10, memoryMb: 300 });
    void request("big", 200);
    void request("large", 150);
    void request("small", 50);
    await settle();
    // "small" would fit beside "big", but "large" came first.
    expect(admitted).toEqual(["big"]);
    await release("big");
    expect(admitted).toEqual(["big", "large", "small"]);
    expect(gate.stats()).toMatchObject({ running: 2, reservedMb: 200, peakReservedMb: 200 });
  });

  it("tells a waiting request how many are ahead, and how long it waited once admitted", async () => {
    const { request, release, advance } = gateWith({ concurrency: 1, memoryMb: 1000 });
    const waits: number[] = [];
    const first = await request("first", 100, { onWait: () => waits.push(-1) });
    const second = request("second", 100, { onWait: ({ ahead }) => waits.push(ahead) });
    const third = request("third", 100, { onWait: ({ ahead }) => waits.push(ahead) });
    expect(waits).toEqual([0, 1]);
    expect(first.queuedMs).toBe(0);
    advance(250);
    await release("first");
    expect((await second).queuedMs).toBe(250);
    advance(100);
    await release("second");
    expect((await third).queuedMs).toBe(350);
  });

  it("takes a cancelled request out of the line, and lets those behind it in", async () => {
    const { gate, admitted, request, release } = gateWith({ concurrency: 10, memoryMb: 300 });
    await request("running", 200);
    const controller = new AbortController();
    const cancelled = request("cancelled", 200, { signal: controller.signal });
    void request("small", 100);
    await settle();
    expect(gate.stats().waiting).toBe(2);
    controller.abort(new Error("the run was cancelled"));
    await expect(cancelled).rejects.toThrow("the run was cancelled");
    await settle();
    expect(admitted).toEqual(["running", "small"]);
    await release("running");
    await release("small");
    expect(admitted).toEqual(["running", "small"]);
    expect(gate.stats()).toMatchObject({ running: 0, waiting: 0, reservedMb: 0 });
  });

  it("refuses at once a request already cancelled", async () => {
    const { gate } = gateWith({ concurrency: 1, memoryMb: 100 });
    await expect(gate.acquire(10, { signal: AbortSignal.abort(new Error("too late")) })).rejects.toThrow("too late");
    expect(gate.stats().running).toBe(0);
  });

  it("refuses at once a request larger than the total, without holding up the others", async () => {
    const { gate, admitted, request } = gateWith({ concurrency: 2, memoryMb: 300 });
    await request("running", 200);
    await expect(gate.acquire(301)).rejects.toMatchObject({
      code: "sandbox_memory",
      message: expect.stringContaining("TRELLIS_SANDBOX_MEMORY_MB"),
    });
    await request("next", 100);
    expect(admitted).toEqual(["running", "next"]);
  });

  it("counts a slot released twice once", async () => {
    const { gate, request } = gateWith({ concurrency: 2, memoryMb: 300 });
    const slot = await request("a", 100);
    await request("b", 100);
    slot.release();
    slot.release();
    expect(gate.stats()).toMatchObject({ running: 1, reservedMb: 100 });
  });

  it("holds memory for an idle warm worker only while it fits and nobody waits, and takes it back for a run", async () => {
    const { gate, admitted, request } = gateWith({ concurrency: 1, memoryMb: 1000 });
    const reclaimed: string[] = [];
    let idle: SandboxSlot | null = gate.reserveIdle(300, () => {
      reclaimed.push("warm");
      idle?.release();
    });
    expect(idle).not.toBeNull();
    // Memory, not a place among the running: a run still gets in beside it.
    expect(gate.stats()).toMatchObject({ running: 0, reservedMb: 300 });
    expect(gate.reserveIdle(800, () => undefined)).toBeNull();
    void request("small", 600);
    await settle();
    expect(admitted).toEqual(["small"]);
    expect(reclaimed).toEqual([]);
    // This one does not fit beside the idle worker: the idle worker gives its memory back at once.
    const {
      gate: tight,
      admitted: tightAdmitted,
      request: tightRequest,
    } = gateWith({ concurrency: 2, memoryMb: 1000 });
    idle = tight.reserveIdle(300, () => {
      reclaimed.push("tight");
      idle?.release();
    });
    void tightRequest("large", 900);
    await settle();
    expect(reclaimed).toEqual(["tight"]);
    expect(tightAdmitted).toEqual(["large"]);
    expect(tight.stats()).toMatchObject({ running: 1, reservedMb: 900, waiting: 0 });
  });
});
