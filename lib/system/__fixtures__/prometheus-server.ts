import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** Debian's `prometheus` package puts it here (.ci/run installs it); PROMETHEUS_BIN points elsewhere. */
const PROMETHEUS = process.env.PROMETHEUS_BIN ?? "/usr/bin/prometheus";

export interface PrometheusServer {
  url: string;
  /** An instant PromQL query over Prometheus's HTTP API: the first sample's value, or undefined when none. */
  query(promql: string): Promise<number | undefined>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A real Prometheus scraping `target` (host:port) at `metricsPath` every second with `token` as
 * its bearer, its data in a temporary folder removed on stop.
 */
export async function startPrometheus(options: {
  target: string;
  metricsPath: string;
  token: string;
}): Promise<PrometheusServer> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "trellis-prometheus-"));
  const config = path.join(folder, "prometheus.yml");
  writeFileSync(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "  evaluation_interval: 1s",
      "scrape_configs:",
      "  - job_name: trellis",
      `    metrics_path: ${options.metricsPath}`,
      "    authorization:",
      "      type: Bearer",
      `      credentials: ${options.token}`,
      "    static_configs:",
      `      - targets: ["${options.target}"]`,
      "",
    ].join("\n"),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(folder, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const failed = new Promise<never>((_, reject) =>
    child.once("error", (error) =>
      reject(
        new Error(
          `Prometheus could not be started from ${PROMETHEUS} (apt-get install -y prometheus): ${error.message}`,
        ),
      ),
    ),
  );
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
    rmSync(folder, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await Promise.race([
      fetch(`${url}/-/ready`).then(
        (response) => response.ok,
        () => false,
      ),
      failed,
    ]).catch(async (error: unknown) => {
      await stop();
      throw error;
    });
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`Prometheus did not become ready:\n${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async query(promql) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await response.json()) as {
        status: string;
        data?: { result: Array<{ value: [number, string] }> };
        error?: string;
      };
      if (body.status !== "success") throw new Error(`PromQL ${promql} failed: ${body.error}`);
      const first = body.data?.result[0];
      return first ? Number(first.value[1]) : undefined;
    },
    stop,
  };
}
