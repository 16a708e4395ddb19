#!/usr/bin/env node
// `npm run db:generate`, also run on install: generates the Prisma client into lib/generated/prisma
// (not committed). Generation itself runs in WebAssembly, but the Prisma CLI insists on a native
// schema engine binary it cannot download here; pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing
// file satisfies that check without using it.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const cli = require.resolve("prisma/build/index.js");
const schema = fileURLToPath(new URL("../prisma/schema.prisma", import.meta.url));
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};
const result = spawnSync(process.execPath, [cli, "generate", "--schema", schema], { stdio: "inherit", env });
process.exit(result.status ?? 1);
