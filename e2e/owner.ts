import os from "node:os";
import path from "node:path";

/** The owner account the e2e server creates at start (TRELLIS_ADMIN_EMAIL / _PASSWORD). */
export const E2E_OWNER = { email: "owner@e2e.test", password: "e2e-owner-password-1" } as const;

/** Where the signed-in session is kept between the global set-up and the tests (outside test-results, which is emptied). */
export const E2E_STORAGE_STATE = path.join(os.tmpdir(), `trellis-e2e-session-${process.env.E2E_PORT ?? 3100}.json`);
