import { existsSync } from "node:fs";
import path from "node:path";

/** The suite measures the production server, which `next start` serves only from a build. */
export default function requireBuild(): void {
  if (!existsSync(path.join(process.cwd(), ".next/BUILD_ID"))) {
    throw new Error(
      "The load suite runs against the built app and there is no build (.next/BUILD_ID): run `npm run build` first.",
    );
  }
}
