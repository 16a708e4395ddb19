/** Takes this process's lock on an embedded data directory; returns its release function. */
export function acquireEmbeddedLock(databaseDir: string): () => void;
