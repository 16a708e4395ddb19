import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { postgresBinDir, startPrivatePostgres, type PrivatePostgres } from "@/lib/db/test-private-postgres";
import { waitFor } from "./__fixtures__/durable-kit";
import { LISTENER_NAME, PostgresRunBus } from "./postgres-run-bus";
import type { RunSignal } from "./run-bus";

/**
 * The run bus across lost connections, on a private PostgreSQL server (the shared one is never
 * touched): two buses stand for two processes.
 */
describe.skipIf(!postgresBinDir())("PostgresRunBus when its connection is lost", () => {
  let server: PrivatePostgres;
  const opened: Array<{ bus: PostgresRunBus; pool: pg.Pool }> = [];
  const logs: string[] = [];

  beforeAll(async () => {
    server = await startPrivatePostgres();
  }, 60_000);
  afterEach(async () => {
    for (const { bus, pool } of opened.splice(0)) {
      await bus.close();
      await pool.end();
    }
  });
  afterAll(() => server?.destroy());

  async function open(): Promise<{ bus: PostgresRunBus; heard: RunSignal[]; resyncs: () => number }> {
    const pool = new pg.Pool({ connectionString: server.url, max: 2 });
    pool.on("error", () => {});
    const bus = new PostgresRunBus(server.url, pool, 500, (message) => logs.push(message));
    await bus.start();
    opened.push({ bus, pool });
    const heard: RunSignal[] = [];
    let resyncs = 0;
    bus.subscribe((signal) => heard.push(signal));
    bus.onResync(() => (resyncs += 1));
    return { bus, heard, resyncs: () => resyncs };
  }

  /** Ends the listening connections only: the pools and the database stay up. */
  async function dropListeners(): Promise<void> {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [
      LISTENER_NAME,
    ]);
    await admin.end();
  }

  it("replays a cancel sent while the other process's listener was away, exactly once", async () => {
    const sender = await open();
    const receiver = await open();
    await dropListeners();
    // Sent before either listener is back (their first retry waits about 100 ms): the notification reaches nobody.
    await sender.bus.publish({ kind: "cancel", runId: "run-1" });
    await sender.bus.publish({ kind: "approval", runId: "run-2", toolCallId: "call-1", approved: false, reason: "no" });
    await waitFor(
      "the receiver to replay the cancel",
      () => receiver.heard.some((signal) => signal.kind === "cancel"),
      10_000,
    );
    await waitFor("the receiver to resync", () => receiver.resyncs() === 1, 5_000);
    expect(receiver.heard).toEqual([
      { kind: "cancel", runId: "run-1" },
      { kind: "approval", runId: "run-2", toolCallId: "call-1", approved: false, reason: "no" },
    ]);
    // Heard live after the reconnect too, once each.
    await sender.bus.publish({ kind: "cancel", runId: "run-3" });
    await waitFor(
      "the live cancel",
      () => receiver.heard.some((signal) => signal.kind === "cancel" && signal.runId === "run-3"),
      5_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      receiver.heard.filter((signal) => signal.kind === "cancel").map((signal) => (signal as { runId: string }).runId),
    ).toEqual(["run-1", "run-3"]);
  }, 30_000);

  it("reconnects with a fresh connection after an outage of several seconds, and hears signals again", async () => {
    const sender = await open();
    const receiver = await open();
    await server.blockConnections(3_000);
    await waitFor(
      "the sender to publish again",
      () =>
        sender.bus.publish({ kind: "events", runs: [["run-9", 4]] }).then(
          () => true,
          () => false,
        ),
      20_000,
      100,
    );
    await waitFor(
      "the receiver to hear live signals again",
      async () => {
        await sender.bus.publish({ kind: "ended", runIds: ["run-9"] }).catch(() => {});
        return receiver.heard.some((signal) => signal.kind === "ended");
      },
      20_000,
      200,
    );
    expect(logs.some((line) => /listening again after \d+ ms/.test(line))).toBe(true);
  }, 40_000);

  it("carries a stored signal too large for a notification by its id", async () => {
    const sender = await open();
    const receiver = await open();
    const reason = "r".repeat(9_000);
    await sender.bus.publish({ kind: "approval", runId: "run-big", toolCallId: "call-big", approved: true, reason });
    await waitFor("the large decision", () => receiver.heard.some((signal) => signal.kind === "approval"), 5_000);
    expect(receiver.heard).toEqual([
      { kind: "approval", runId: "run-big", toolCallId: "call-big", approved: true, reason },
    ]);
  }, 20_000);
});
