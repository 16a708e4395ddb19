/** Where the fingerprint of the built sources is kept, relative to the project folder. */
export const FINGERPRINT_FILE: string;
/** A hash of every source file's path and content under `root`. */
export function sourceFingerprint(root: string): string;
/** Why `root` needs a production build before it can start, or null when its build is of the current code. */
export function buildNeeded(root: string): string | null;
/** Records that the build in .next is of the code as it is now. */
export function recordBuild(root: string): void;
