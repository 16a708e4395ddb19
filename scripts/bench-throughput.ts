/**
 * `npm run bench:throughput`: durable runs per second through the HTTP API, and the per-block cost
 * of checkpoints (issue 14). Targets: >= 300 runs/s with one process on PostgreSQL, <= 1 ms of
 * checkpoint overhead per block.
 *
 * Needs the built app (`TRELLIS_CLIENT_SOURCE_MAPS=1 npx next build`; this does not build) and
 * PostgreSQL on 127.0.0.1 as user postgres. Run it on a quiet machine: the load clients share it
 * with the server.
 *
 * Throughput: a two-block workflow (start -> response) run with POST /api/workflows/:id/runs and
 * `{"wait": true}` (the answer is the finished run with its spans; every trace is stored), by 1,
 * 10 and 50 closed-loop clients (each sends its next request when its answer has arrived, over
 * keep-alive connections, with an API key), for --duration seconds after --warmup seconds, in:
 *   pg-single  PostgreSQL, one process: `next start` executes runs itself (TRELLIS_WORKER=on)
 *   pg-split   PostgreSQL, `next start` with TRELLIS_WORKER=off plus one `scripts/worker.ts`
 *   embedded   the embedded database (no DATABASE_URL; DATA_DIR a fresh temp dir), one process
 * Each setup gets a fresh database (trellis_bench_throughput_<setup>) and data directory, runs
 * `node scripts/migrate.mjs` and starts the app as an operator does; the owner comes from
 * TRELLIS_ADMIN_EMAIL/PASSWORD, signs in over HTTP and makes the API key the clients use.
 * Reported per setup and concurrency: runs/s (the median over --window-second windows of the
 * runs that ended in them), latency median and p99, and errors (a non-200 answer, or a run that
 * did not succeed; the first one is printed).
 *
 * chain: the checkpoint overhead, in this process: a 1,000-block chain (start -> 998 conditions
 * with only an else branch, the cheapest real block -> response) executed as a worker executes a
 * queued run (`executeAttempt` over the real repositories), with and without durable checkpoints,
 * on PostgreSQL and on the embedded database; (median with - median without) / 1,000 per block.
 *
 * --profile adds a pass of pg-single at the highest concurrency with `node --cpu-prof` on the web
 * process (row "pg-single-profiled": slowed by the profiler, not a throughput figure) and prints its
 * self time over the measured window by layer, by package / Trellis file and by function ("where a
 * run's time goes"); the .cpuprofile stays in .bench/profiles/ (open it in Chrome DevTools).
 * `--setups= --profile` runs only that pass.
 *
 * Options: --setups pg-single,pg-split,embedded,chain --clients 1,10,50 --duration 15 --warmup 3
 * --window 5 --chain-blocks 1000 --chain-runs 5 --profile --url postgres://postgres@127.0.0.1:5432
 * --port <port> (default: a free one) --echo (print the app's output) --keep (keep the databases
 * and data directories) --out .bench/throughput.json. Every process it starts is stopped at the
 * end, also on error or Ctrl-C.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { checkRunAnswer, SETUP_DESCRIPTIONS, startApp, type SetupName } from "./bench-throughput/app";
import type { ChainResult } from "./bench-throughput/chain";
import { closedLoop, type LoadResult } from "./bench-throughput/load";
import { freePort, killAllNow, stopAll } from "./bench-throughput/processes";
import { printProfile, summariseProfile, type ProfileSummary } from "./bench-throughput/profile";

const { values } = parseArgs({
  options: {
    setups: { type: "string", default: "pg-single,pg-split,embedded,chain" },
    clients: { type: "string", default: "1,10,50" },
    duration: { type: "string", default: "15" },
    warmup: { type: "string", default: "3" },
    window: { type: "string", default: "5" },
    "chain-blocks": { type: "string", default: "1000" },
    "chain-runs": { type: "string", default: "5" },
    profile: { type: "boolean", default: false },
    url: { type: "string", default: "postgres://postgres@127.0.0.1:5432" },
    port: { type: "string" },
    echo: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    out: { type: "string", default: ".bench/throughput.json" },
  },
});

const HTTP_SETUPS: SetupName[] = ["pg-single", "pg-split", "embedded"];
const SETUPS = values.setups
  .split(",")
  .map((name) => name.trim())
  .filter(Boolean);
for (const name of SETUPS)
  if (!(HTTP_SETUPS as string[]).includes(name) && name !== "chain") throw new Error(`unknown setup "${name}"`);
const CLIENTS = values.clients.split(",").map(Number);
const DURATION_MS = Number(values.duration) * 1000;
const WARMUP_MS = Number(values.warmup) * 1000;
const WINDOW_MS = Math.min(Number(values.window) * 1000, DURATION_MS);
const CHAIN_BLOCKS = Number(values["chain-blocks"]);
const CHAIN_RUNS = Number(values["chain-runs"]);
const ROOT = process.cwd();
const PG_URL = values.url.replace(/\/+$/, "");
for (const [name, value] of Object.entries({
  clients: Math.min(...CLIENTS),
  duration: DURATION_MS,
  window: WINDOW_MS,
  "chain-runs": CHAIN_RUNS,
})) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
}
if (!Number.isInteger(CHAIN_BLOCKS) || CHAIN_BLOCKS < 3 || CHAIN_BLOCKS > 2_000)
  throw new Error("--chain-blocks must be a whole number from 3 to 2000");
const TARGET_RUNS_PER_SECOND = 300;
const TARGET_MS_PER_BLOCK = 1;

interface ThroughputRow extends LoadResult {
  setup: SetupName | "pg-single-profiled";
  description: string;
}

const databases = new Set<string>();
const tempDirs: string[] = [];

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG_URL}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function freshDatabase(name: string): Promise<string> {
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  databases.add(name);
  return `${PG_URL}/${name}`;
}

function freshDir(label: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `trellis-bench-${label}-`));
  tempDirs.push(dir);
  return dir;
}

async function port(): Promise<number> {
  return values.port ? Number(values.port) : freePort();
}

/** One setup: start it, run the load at each concurrency, stop it. */
async function throughput(
  setup: SetupName,
  clients: number[],
  profileDir?: string,
): Promise<{ rows: ThroughputRow[]; window?: { fromUs: number; toUs: number } }> {
  const label = profileDir ? "pg-single-profiled" : setup;
  console.log(`\n== ${label}: ${SETUP_DESCRIPTIONS[setup]}${profileDir ? ", under the CPU profiler" : ""}`);
  const databaseUrl =
    setup === "embedded" ? undefined : await freshDatabase(`trellis_bench_throughput_${label.replaceAll("-", "_")}`);
  const app = await startApp({
    setup,
    port: await port(),
    dataDir: freshDir(label),
    databaseUrl,
    profileDir,
    echo: values.echo,
  });
  const rows: ThroughputRow[] = [];
  let window: { fromUs: number; toUs: number } | undefined;
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  try {
    console.log(
      `  up at ${app.baseUrl} (${app.processes.map((managed) => `${managed.name} pid ${managed.child.pid}`).join(", ")})`,
    );
    for (const concurrency of clients) {
      const result = await closedLoop({
        url: `${app.baseUrl}/api/workflows/${app.workflowId}/runs`,
        headers: { ...app.headers, "content-type": "application/json" },
        body: JSON.stringify({ wait: true }),
        concurrency,
        warmupMs: WARMUP_MS,
        durationMs: DURATION_MS,
        windowMs: WINDOW_MS,
        check: checkRunAnswer,
        // V8's profile clock and process.hrtime are both the monotonic clock, in microseconds here.
        onMeasure: (phase) => {
          if (phase === "start") window = { fromUs: nowUs(), toUs: Number.POSITIVE_INFINITY };
          else if (window) window.toUs = nowUs();
        },
      });
      rows.push({ setup: label, description: SETUP_DESCRIPTIONS[setup], ...result });
      console.log(
        `  ${String(concurrency).padStart(3)} clients: ${result.runsPerSecond} runs/s (windows ${result.windows.join(", ")}), ` +
          `p50 ${result.latencyMs.median} ms, p99 ${result.latencyMs.p99} ms, ${result.completed} runs, ${result.errors} errors`,
      );
      if (result.firstError) console.log(`    first error: ${result.firstError}`);
    }
  } finally {
    await app.stop();
  }
  return { rows, window };
}

/** The profile the web process wrote when it exited (the largest, should `next start` have started other node processes). */
function newestProfile(dir: string): string | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".cpuprofile"))
    .map((name) => path.join(dir, name));
  files.sort((a, b) => statSync(b).size - statSync(a).size);
  return files[0] ?? null;
}

function gitRevision(): string | null {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    const dirty =
      execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim() !== "";
    return `${head}${dirty ? " (with uncommitted changes)" : ""}`;
  } catch {
    return null;
  }
}

function printTables(rows: ThroughputRow[], chain: ChainResult[]): void {
  if (rows.length > 0) {
    console.log(
      `\nThroughput: POST /api/workflows/:id/runs {"wait":true}, start -> response, closed loop, ${DURATION_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up`,
    );
    const header = ["setup", "clients", "runs/s", "mean/s", "windows (runs/s)", "p50 ms", "p99 ms", "runs", "errors"];
    const lines = rows.map((row) => [
      row.setup,
      String(row.concurrency),
      row.runsPerSecond.toFixed(1),
      row.meanRunsPerSecond.toFixed(1),
      row.windows.map((rate) => rate.toFixed(0)).join(" "),
      row.latencyMs.median.toFixed(1),
      row.latencyMs.p99.toFixed(1),
      String(row.completed),
      String(row.errors + row.warmupErrors),
    ]);
    const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => line[column]!.length)));
    const format = (cells: string[]) =>
      cells
        .map((cell, column) =>
          column === 0 || column === 4 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
        )
        .join("  ");
    console.log(format(header));
    for (const line of lines) console.log(format(line));
    for (const row of rows)
      if (row.firstError) console.log(`first error, ${row.setup} at ${row.concurrency} clients: ${row.firstError}`);
  }
  if (chain.length > 0) {
    const first = chain[0]!;
    console.log(
      `\nCheckpoint overhead: chain of ${first.blocks} blocks (start -> ${first.blocks - 2} conditions -> response), executeAttempt in-process, median of ${first.runs} runs each`,
    );
    console.log("backend    with (ms)  without (ms)  overhead ms/block  base ms/block  checkpoints/run");
    for (const result of chain) {
      console.log(
        `${result.backend.padEnd(9)}  ${result.withCheckpointsMs.toFixed(0).padStart(9)}  ${result.withoutCheckpointsMs.toFixed(0).padStart(12)}  ` +
          `${result.overheadMsPerBlock.toFixed(3).padStart(17)}  ${result.baseMsPerBlock.toFixed(3).padStart(13)}  ${String(result.checkpointRowsPerRun).padStart(15)}`,
      );
    }
  }
}

async function main(): Promise<void> {
  const httpSetups = HTTP_SETUPS.filter((name) => SETUPS.includes(name));
  const wantsPostgres = httpSetups.some((name) => name !== "embedded") || SETUPS.includes("chain") || values.profile;
  if ((httpSetups.length > 0 || values.profile) && !existsSync(path.join(ROOT, ".next/BUILD_ID"))) {
    throw new Error(
      "No build found (.next/BUILD_ID). Build the app first: TRELLIS_CLIENT_SOURCE_MAPS=1 npx next build",
    );
  }
  if (wantsPostgres)
    await admin("SELECT 1").catch((error: unknown) =>
      Promise.reject(new Error(`PostgreSQL at ${PG_URL} is not reachable: ${String(error)}`)),
    );

  const report: Record<string, unknown> = {
    date: new Date().toISOString(),
    revision: gitRevision(),
    node: process.version,
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? "unknown"}`,
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    options: {
      setups: SETUPS,
      clients: CLIENTS,
      durationS: DURATION_MS / 1000,
      warmupS: WARMUP_MS / 1000,
      windowS: WINDOW_MS / 1000,
      chainBlocks: CHAIN_BLOCKS,
      chainRuns: CHAIN_RUNS,
    },
  };
  const rows: ThroughputRow[] = [];
  const chain: ChainResult[] = [];
  let profile: ProfileSummary | null = null;
  console.log(
    `Throughput bench on ${report.cpus as string}, load average ${(report.loadAverageAtStart as number[]).join(" ")}`,
  );

  for (const setup of httpSetups) rows.push(...(await throughput(setup, CLIENTS)).rows);

  if (values.profile) {
    const profileDir = path.join(ROOT, ".bench", "profiles", new Date().toISOString().replaceAll(":", "-"));
    mkdirSync(profileDir, { recursive: true });
    const profiled = await throughput("pg-single", [Math.max(...CLIENTS)], profileDir);
    rows.push(...profiled.rows);
    const file = newestProfile(profileDir);
    if (!file) throw new Error(`the web process wrote no CPU profile in ${profileDir}`);
    profile = summariseProfile(file, { root: ROOT, window: profiled.window, top: 25 });
  }

  if (SETUPS.includes("chain")) {
    // Imported only now: it loads the app's server code (Prisma, the runtime) into this process.
    const { chainOverhead } = await import("./bench-throughput/chain");
    for (const backend of ["postgres", "embedded"] as const) {
      console.log(
        `\n== chain of ${CHAIN_BLOCKS} blocks on ${backend === "postgres" ? "PostgreSQL" : "the embedded database"}`,
      );
      const result = await chainOverhead({
        backend,
        blocks: CHAIN_BLOCKS,
        runs: CHAIN_RUNS,
        ...(backend === "postgres"
          ? { databaseUrl: await freshDatabase("trellis_bench_throughput_chain") }
          : { dataDir: freshDir("chain") }),
        log: (line) => console.log(line),
      });
      chain.push(result);
      console.log(
        `  ${result.overheadMsPerBlock} ms per block (with ${result.withCheckpointsMs} ms, without ${result.withoutCheckpointsMs} ms)`,
      );
    }
  }

  printTables(rows, chain);
  if (profile) printProfile(profile);

  const single = rows.filter((row) => row.setup === "pg-single");
  const bestSingle = single.length ? Math.max(...single.map((row) => row.runsPerSecond)) : null;
  const worstOverhead = chain.length ? Math.max(...chain.map((result) => result.overheadMsPerBlock)) : null;
  const targets = {
    runsPerSecondPgSingle:
      bestSingle === null
        ? null
        : { target: TARGET_RUNS_PER_SECOND, best: bestSingle, met: bestSingle >= TARGET_RUNS_PER_SECOND },
    checkpointMsPerBlock:
      worstOverhead === null
        ? null
        : { target: TARGET_MS_PER_BLOCK, worst: worstOverhead, met: worstOverhead <= TARGET_MS_PER_BLOCK },
  };
  console.log("");
  if (targets.runsPerSecondPgSingle) {
    const { best, met } = targets.runsPerSecondPgSingle;
    console.log(
      `target >= ${TARGET_RUNS_PER_SECOND} runs/s, one process on PostgreSQL: best ${best} runs/s ${met ? "MET" : "MISSED"}`,
    );
  }
  if (targets.checkpointMsPerBlock) {
    const { worst, met } = targets.checkpointMsPerBlock;
    console.log(
      `target <= ${TARGET_MS_PER_BLOCK} ms checkpoint overhead per block: worst ${worst} ms ${met ? "MET" : "MISSED"}`,
    );
  }

  Object.assign(report, {
    throughput: rows,
    chain,
    profile,
    targets,
    loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100),
  });
  const out = path.resolve(ROOT, values.out);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${out.startsWith(`${ROOT}${path.sep}`) ? path.relative(ROOT, out) : out}`);
}

async function cleanUp(): Promise<void> {
  await stopAll();
  if (values.keep) {
    if (databases.size || tempDirs.length)
      console.log(
        `kept: databases ${[...databases].join(", ") || "none"}; directories ${tempDirs.join(", ") || "none"}`,
      );
    return;
  }
  for (const name of databases)
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: unknown) =>
      console.warn(`could not drop ${name}: ${String(error)}`),
    );
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

process.on("exit", killAllNow);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.log(`\n${signal}: stopping the processes the bench started`);
    void cleanUp().finally(() => process.exit(130));
  });
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  // The message says what failed (with the processes' last output); the stack only with --echo.
  console.error(
    `\nbench failed: ${error instanceof Error ? (values.echo ? (error.stack ?? error.message) : error.message) : String(error)}`,
  );
} finally {
  await cleanUp();
}
// The chain's database clients and timers must not keep the process alive.
process.exit(process.exitCode ?? 0);
