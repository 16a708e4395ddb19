import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

/**
 * `npm run test:load`: the load and fault suite (issue 15), against the built app. Each file starts
 * its own server and measures it, so files run one at a time: two at once would share the CPU and
 * each would measure the other's load.
 */
export default defineConfig({
  resolve: {
    alias: { "@": fileURLToPath(new URL("./", import.meta.url)) },
  },
  test: {
    include: ["load/**/*.load.test.ts"],
    environment: "node",
    globalSetup: ["./load/require-build.ts"],
    fileParallelism: false,
    // The soak alone takes TRELLIS_SOAK_MINUTES (10 by default); the others a minute or two each.
    testTimeout: 30 * 60_000,
    hookTimeout: 5 * 60_000,
  },
});
