// Fails when the browser bundle holds server code: a block handler, anything under lib/, or any
// module that imports "server-only". It reads the source maps of the last production build, which
// list every module each browser chunk holds, so the build must have been made with
// TRELLIS_CLIENT_SOURCE_MAPS=1 (CI does). Usage: node scripts/check-client-bundle.mjs
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const chunksDir = path.join(root, ".next", "static", "chunks");
const maps = fs.existsSync(chunksDir)
  ? fs.readdirSync(chunksDir, { recursive: true }).filter((name) => String(name).endsWith(".js.map"))
  : [];
if (maps.length === 0) {
  console.error(
    "No browser source maps in .next/static/chunks: build with TRELLIS_CLIENT_SOURCE_MAPS=1 next build first.",
  );
  process.exit(2);
}

const PROJECT_PREFIX = /^turbopack:\/\/\/\[project\]\//;
const modules = new Set();
for (const name of maps) {
  const map = JSON.parse(fs.readFileSync(path.join(chunksDir, String(name)), "utf8"));
  for (const source of map.sources ?? [])
    if (PROJECT_PREFIX.test(source)) modules.add(source.replace(PROJECT_PREFIX, "").replace(/\?.*$/, ""));
}

function isServerModule(file) {
  if (file.startsWith("node_modules/")) return file.startsWith("node_modules/server-only/");
  if (/^blocks\/[^/]+\/handler\.ts$/.test(file) || file === "blocks/handlers.ts" || file.startsWith("lib/"))
    return true;
  const full = path.join(root, file);
  return fs.existsSync(full) && /^\s*import\s+["']server-only["']/m.test(fs.readFileSync(full, "utf8"));
}

const own = [...modules].filter((file) => !file.startsWith("node_modules/"));
const leaks = [...modules].filter(isServerModule).sort();
console.log(
  `client bundle: ${maps.length} chunks, ${own.length} project modules, ${modules.size - own.length} package modules`,
);
if (leaks.length > 0) {
  console.error(`Server code in the client bundle:\n  ${leaks.join("\n  ")}`);
  process.exit(1);
}
