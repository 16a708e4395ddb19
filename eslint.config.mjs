import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/**
 * Layering of docs/ARCHITECTURE.md, enforced: CI fails when a layer reaches the wrong way.
 * Each entry lists what files in a folder may not import.
 */
const framework = ["next", "next/*", "react", "react-dom", "react/*", "@xyflow/*", "@tanstack/*", "zustand", "zustand/*"];
const database = ["@prisma/*", "pg", "@electric-sql/*", "pglite-prisma-adapter", "@/lib/generated/*"];
const layer = (name) => [`@/${name}`, `@/${name}/*`, `**/../${name}/*`];

function restrict(files, groups, message) {
  return {
    files,
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: groups, message }] }],
    },
  };
}

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ["node_modules/**", ".next/**", ".data/**", "lib/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**"],
  },
  restrict(
    ["executor/**/*.ts"],
    [...framework, ...database, ...layer("lib"), ...layer("components"), ...layer("app"), ...layer("blocks"), ...layer("providers"), ...layer("tools"), ...layer("prisma")],
    "executor/ is pure: it reaches the world only through the interfaces it defines (docs/ARCHITECTURE.md).",
  ),
  restrict(
    ["providers/**/*.ts", "tools/**/*.ts", "sandbox/**/*.ts", "net/**/*.ts"],
    [...framework, ...database, ...layer("lib"), ...layer("components"), ...layer("app")],
    "providers/, tools/, sandbox/ and net/ know nothing of the UI, the web framework or the database (docs/ARCHITECTURE.md).",
  ),
  restrict(
    ["blocks/**/*.ts", "blocks/**/*.tsx"],
    [...framework, ...database, ...layer("lib"), ...layer("components"), ...layer("app")],
    "blocks/ may import executor, providers and tools types, never lib, components or the database (docs/ARCHITECTURE.md).",
  ),
  restrict(
    ["components/**/*.ts", "components/**/*.tsx"],
    [...database, ...layer("lib"), ...layer("app"), ...layer("providers/registry"), "node:*", "fs", "child_process"],
    "components/ run in the browser: import block definitions and executor graph helpers, never lib/ or server code (docs/ARCHITECTURE.md).",
  ),
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
