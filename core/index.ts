/**
 * The layer under the engine and the I/O folders: the error hierarchy, usage and cost arithmetic,
 * the spend ledger, and the contract a block handler and a tool are written against. Pure
 * TypeScript over contract/, so providers/, tools/, net/, knowledge/ and sandbox/ can throw a
 * Trellis error or type a handler's context without importing the engine.
 */
export * from "./errors";
export * from "./handler";
export { createSimulation, noSampleAnswer, type NoSampleAnswer, type Simulation } from "./simulation";
export * from "./spend-ledger";
export * from "./usage";
