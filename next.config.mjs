/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Browser tests reach the dev server as 127.0.0.1; Next 16 blocks dev resources for other origins.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  // CI builds with browser source maps so scripts/check-client-bundle.mjs can list every module
  // the browser receives and refuse server code among them.
  productionBrowserSourceMaps: process.env.TRELLIS_CLIENT_SOURCE_MAPS === "1",
  // Packages with WASM or native parts stay external so Node loads them as-is on the server.
  serverExternalPackages: [
    "@dbos-inc/dbos-sdk",
    "@electric-sql/pglite-socket",
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/client",
    "@prisma/adapter-pg",
    "@prisma/schema-engine-wasm",
    "pg",
    "quickjs-emscripten",
    "pyodide",
    "js-tiktoken",
    "@pydantic/genai-prices",
    // One logger and one metrics registry per process, and the OpenTelemetry SDK loaded only when OTLP is configured.
    "pino",
    "pino-pretty",
    "prom-client",
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/resources",
    "@opentelemetry/exporter-trace-otlp-proto",
    "@opentelemetry/exporter-trace-otlp-http",
  ],
};

export default nextConfig;
