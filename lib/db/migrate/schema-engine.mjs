// Loads Prisma's official WASM schema engine (@prisma/schema-engine-wasm). Its package entry
// imports the .wasm file as an ES module, which Node 20 cannot do, so the module is compiled here
// and instantiated with the package's own wasm-bindgen glue as its imports.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

/** @type {Promise<typeof import("@prisma/schema-engine-wasm")> | undefined} */
let loading;

/** The engine's module (SchemaEngine class, version()), compiled once per process. */
export function loadSchemaEngineModule() {
  loading ??= (async () => {
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue = await import(pathToFileURL(gluePath).href);
    const bytes = await readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
    const compiled = new WebAssembly.Module(bytes);
    const instance = new WebAssembly.Instance(compiled, { "./schema_engine_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return glue;
  })();
  return loading;
}
