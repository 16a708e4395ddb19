import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws unless resolved under the react-server condition, as Next.js does for
      // server code; tests run server modules in plain Node, so they get its empty module.
      "server-only": fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    include: ["**/*.test.ts", "**/*.test.tsx"],
    exclude: ["node_modules/**", "e2e/**", "load/**", ".next/**", ".data/**"],
    environment: "node",
    globalSetup: ["./lib/db/test-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
