/**
 * The byte-pair encoder on its own, with no server-only import behind it: the knowledge
 * ingestion thread loads it outside the app's bundles, where `@/providers` (whose registry and
 * provider settings are server-only) cannot be imported.
 */
export { BytePairEncoder } from "./byte-pair-encoder";
