#!/usr/bin/env node
// `npm start`: serves the production build, building it first when there is none or the code changed
// (scripts/build-freshness.mjs), then applies migrations and starts Next.js on HOST:PORT.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildNeeded } from "./build-freshness.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const QUIET_NOTICE_MS = 20_000;

/** Runs a command in the project folder, passing on Ctrl+C and a stop; resolves with its exit code. */
function run(command, args, { onLine } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: onLine ? ["inherit", "pipe", "pipe"] : "inherit" });
    const forward = (signal) => child.kill(signal);
    process.on("SIGINT", forward).on("SIGTERM", forward);
    if (onLine)
      for (const stream of [child.stdout, child.stderr]) {
        let rest = "";
        stream.on("data", (chunk) => {
          const lines = (rest + chunk.toString("utf8")).split("\n");
          rest = lines.pop() ?? "";
          for (const line of lines) onLine(line);
        });
        stream.on("end", () => rest && onLine(rest));
      }
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward).off("SIGTERM", forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function build(reason) {
  const began = Date.now();
  const elapsed = () => `${Math.round((Date.now() - began) / 1000)} s`;
  console.log(`Building Trellis for production: ${reason}. This takes a few minutes, once.`);
  let lastLine = Date.now();
  // Next.js prints its steps; between them (compiling takes minutes on 2 cores) a line says it is alive.
  const heartbeat = setInterval(() => {
    if (Date.now() - lastLine >= QUIET_NOTICE_MS) console.log(`  build │ still building (${elapsed()})`);
  }, QUIET_NOTICE_MS);
  const code = await run("npm", ["run", "--silent", "build"], {
    onLine: (line) => {
      lastLine = Date.now();
      if (line.trim()) console.log(`  build │ ${line}`);
    },
  });
  clearInterval(heartbeat);
  if (code !== 0) {
    console.error(`The production build failed (exit code ${code}) after ${elapsed()}; its output is above.`);
    process.exit(code);
  }
  console.log(`Built in ${elapsed()}.`);
}

const reason = buildNeeded(root);
if (reason) await build(reason);
const migrated = await run(process.execPath, [path.join(root, "scripts", "migrate.mjs")]);
if (migrated !== 0) process.exit(migrated);
const host = process.env.HOST || "127.0.0.1";
const port = process.env.PORT || "3000";
process.exit(await run(process.execPath, [nextBin, "start", "-H", host, "-p", port]));
