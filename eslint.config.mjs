import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import { trellisPlugin } from "./eslint/index.mjs";

/**
 * Layering of docs/ARCHITECTURE.md, enforced: CI fails when a layer reaches the wrong way.
 * Each entry lists what files in a folder may not import.
 */
const framework = [
  "next",
  "next/*",
  "react",
  "react-dom",
  "react/*",
  "@xyflow/*",
  "@tanstack/*",
  "zustand",
  "zustand/*",
];
const database = ["@prisma/*", "pg", "@electric-sql/*", "pglite-prisma-adapter", "@/lib/generated/*"];
const layer = (name) => [`@/${name}`, `@/${name}/*`, `**/../${name}/*`];
const serverLayers = ["lib", "app", "providers", "tools", "sandbox", "net", "knowledge", "prisma"].flatMap(layer);
const handlers = ["@/blocks/*/handler", "@/blocks/*/handler.ts", "**/handler", "@/blocks/handlers"];

/**
 * Entries a folder offers besides its index.ts: a server-only surface, test support. Everything
 * else behind an index.ts is the folder's own.
 */
const folderEntries = {
  blocks: ["handlers"],
  // encoding: the byte-pair encoder alone, for the knowledge ingestion thread, which cannot load the server-only registry behind the index.
  providers: ["testing", "encoding"],
  "components/editor": ["store"],
  // The OpenAPI catalog and generator: only the route and the docs page load it, so the contract's index (which the browser's API client loads) leaves it out.
  contract: ["openapi"],
  // callers: who is calling, for lib/http's endpoints, which the auth index's own endpoints import (no circle through the index).
  // page-access: the pages' sign-in check, which loads next/headers and next/navigation; the index leaves it out so the
  // worker process (scripts/worker.ts, plain Node) never loads Next's client router through lib/auth.
  "lib/auth": ["callers", "page-access"],
  // audit-log: the writer alone, which lib/auth records sign-ins with (the index's endpoints import lib/auth).
  "lib/audit": ["audit-log"],
  // The providers and their discovery, which lib/auth signs people in with (the index's endpoints import lib/auth).
  "lib/sso": ["sso-providers", "oidc-discovery"],
};

function restrict(files, groups, message) {
  return {
    files,
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: groups, message }] }],
    },
  };
}

/** Files that may import only what `forbidden` (a regular expression) does not match. */
function onlyImports(files, forbidden, message) {
  return {
    files,
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: forbidden, message }] }],
    },
  };
}

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      "lib/generated/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
    ],
  },
  // contract/ is the wire contract: zod and its own files, nothing else; a folder inside it (openapi/)
  // may import the contract's files one level up, never past it.
  onlyImports(
    ["contract/*.ts"],
    "^(?!zod$|\\./)",
    "contract/ is the wire contract: it imports zod and its own files, nothing else (docs/ARCHITECTURE.md).",
  ),
  onlyImports(
    ["contract/*/**/*.ts"],
    "^(?!zod$|\\./|\\.\\./(?!\\.\\./))",
    "contract/ is the wire contract: it imports zod and its own files, nothing else (docs/ARCHITECTURE.md).",
  ),
  restrict(
    ["core/**/*.ts"],
    [...framework, ...database, ...layer("executor"), ...layer("components"), ...layer("blocks"), ...serverLayers],
    "core/ is the layer under the engine and the I/O folders: it imports contract/ and nothing else (docs/ARCHITECTURE.md).",
  ),
  restrict(
    ["executor/**/*.ts"],
    [...framework, ...database, ...layer("components"), ...layer("blocks"), ...serverLayers],
    "executor/ is pure: it imports contract/ and core/ and reaches the world only through the interfaces it defines (docs/ARCHITECTURE.md).",
  ),
  restrict(
    ["providers/**/*.ts", "tools/**/*.ts", "sandbox/**/*.ts", "net/**/*.ts", "knowledge/**/*.ts"],
    [
      ...framework,
      ...database,
      ...layer("executor"),
      ...layer("lib"),
      ...layer("components"),
      ...layer("app"),
      ...layer("blocks"),
    ],
    "providers/, tools/, sandbox/, net/ and knowledge/ know nothing of the engine, blocks, the UI, the web framework or the database: errors, usage and the handler types are in core/ (docs/ARCHITECTURE.md).",
  ),
  restrict(
    ["blocks/**/*.ts", "blocks/**/*.tsx"],
    [...framework, ...database, ...layer("lib"), ...layer("components"), ...layer("app")],
    "blocks/ may import executor, providers and tools types, never lib, components or the database (docs/ARCHITECTURE.md).",
  ),
  restrict(
    ["components/**/*.ts", "components/**/*.tsx"],
    [...database, ...serverLayers, ...handlers, "node:*", "fs", "child_process"],
    "components/ run in the browser: import contract/, block definitions and executor graph helpers, never a block handler, lib/ or other server code (docs/ARCHITECTURE.md).",
  ),
  restrict(
    ["lib/**/*.ts"],
    [
      "react",
      "react-dom",
      "react/*",
      "@xyflow/*",
      "zustand",
      "zustand/*",
      "@tanstack/*",
      // Next's router and request scope load its client runtime, which a plain Node process (the worker) cannot;
      // lib/auth/page-access.ts alone, which only pages import, uses them.
      "next/navigation",
      "next/headers",
      ...layer("components"),
      ...layer("app"),
    ],
    "lib/ is server wiring: it knows nothing of the UI or the routes (docs/ARCHITECTURE.md).",
  ),
  {
    plugins: { trellis: trellisPlugin },
  },
  {
    // Tests, fixtures, test support and scripts may reach into a folder; the app's code may not.
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    ignores: [
      "**/*.test.ts",
      "**/*.test.tsx",
      "**/__fixtures__/**",
      "**/testing/**",
      "**/bench/**",
      "e2e/**",
      "scripts/**",
      "lib/db/test-*.ts",
    ],
    rules: {
      "trellis/folder-entry": ["error", { entries: folderEntries }],
      "trellis/client-server": "error",
    },
  },
  {
    // Every page shows a moment one way, through components/ui/date-time.ts.
    files: ["components/**/*.ts", "components/**/*.tsx", "app/**/*.ts", "app/**/*.tsx"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "trellis/one-date-format": "error" },
  },
  {
    files: ["app/api/**/route.ts"],
    rules: { "trellis/thin-route": "error" },
  },
  {
    files: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "trellis/database-test-name": "error" },
  },
  {
    // Type information for the promise rules alone, so lint stays fast: a promise nobody awaits loses
    // its error (an unhandled rejection ends the process) and the order of what follows it.
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // A cycle of runtime imports makes load order decide what is defined; type-only imports are free.
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    plugins: { "import-x": importX },
    settings: {
      // import-x follows only the files it can parse: TypeScript too, with the parser the rest of lint uses.
      "import-x/extensions": [".ts", ".tsx", ".mjs", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // The server speaks through one logger (lib/observability): levels, ids and masking on every line.
    files: [
      "lib/**/*.ts",
      "app/**/*.ts",
      "app/**/*.tsx",
      "blocks/**/*.ts",
      "core/**/*.ts",
      "executor/**/*.ts",
      "providers/**/*.ts",
      "tools/**/*.ts",
      "sandbox/**/*.ts",
      "net/**/*.ts",
      "knowledge/**/*.ts",
      "instrumentation.ts",
      "scripts/worker.ts",
    ],
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/__fixtures__/**", "**/testing/**", "**/bench/**"],
    rules: { "no-console": "error" },
  },
  {
    // The test LLM server parses three providers' wire formats: raw JSON of any shape.
    files: ["providers/testing/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-eval": "error",
      "no-new-func": "error",
      "no-implied-eval": "error",
    },
  },
];

export default config;
