import "server-only";
import { TrellisError } from "@/executor";

/** A stored thing with that id or name does not exist (HTTP 404). */
export class NotFoundError extends TrellisError {
  constructor(entity: string, id: string) {
    super("not_found", `${entity} "${id}" was not found`);
  }
}

/** A workflow was updated from a version that is no longer current (HTTP 409); nothing was stored. */
export class VersionConflictError extends TrellisError {
  readonly currentVersion: number;
  constructor(workflowId: string, expectedVersion: number, currentVersion: number) {
    super(
      "version_conflict",
      `Workflow "${workflowId}" is at version ${currentVersion}, not ${expectedVersion}: it was changed elsewhere. Reload it and apply your changes again.`,
    );
    this.currentVersion = currentVersion;
  }
}

/** Input the database layer refuses before storing anything (HTTP 400). */
export class InvalidInputError extends TrellisError {
  constructor(message: string, path = "") {
    super("invalid_input", message, { details: path ? [{ path, message }] : [] });
  }
}

/** A stored secret cannot be decrypted: the key changed or the row was tampered with. */
export class SecretUnreadableError extends TrellisError {
  constructor(name: string) {
    super(
      "secret_unreadable",
      `Secret "${name}" cannot be decrypted with the current key. Was TRELLIS_SECRET_KEY or DATA_DIR/secret.key changed? Set the secret again.`,
    );
  }
}
