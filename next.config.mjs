/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Packages with WASM or native parts stay external so Node loads them as-is on the server.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/client",
    "@prisma/adapter-pg",
    "@prisma/schema-engine-wasm",
    "pg",
    "quickjs-emscripten",
    "js-tiktoken",
    "@pydantic/genai-prices",
  ],
};

export default nextConfig;
