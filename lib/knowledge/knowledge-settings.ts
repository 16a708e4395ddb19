import "server-only";
/** Upload limits: per file and per request. */
export const UPLOAD_LIMITS = { maxFileBytes: 10 * 1024 * 1024, maxFiles: 20 };
