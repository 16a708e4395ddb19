import "server-only";
import { getRepositories } from "@/lib/db";
import { secretEndpoints } from "./secret-endpoints";

/** The secret endpoints over the app's database. */
export const appSecretEndpoints = secretEndpoints(() => getRepositories().secrets);
