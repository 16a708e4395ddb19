import "server-only";
/** The database layer (server-only). Routes and the runtime import from here. */
export { closeDatabase, createPrisma, getDatabase, getPrisma } from "./client";
export type { Database, DatabaseBackend, DatabaseOptions, PrismaClient } from "./client";
export { InvalidInputError, NotFoundError, SecretUnreadableError, VersionConflictError } from "./errors";
export { createRepositories, getRepositories } from "./repositories";
export type { Repositories } from "./repositories";
export { WorkflowRepository } from "./workflow-repository";
export { RunRepository } from "./run-repository";
export { WorkspaceRunRepository, type WorkspaceRunListOptions } from "./workspace-run-repository";
export { DeploymentRepository } from "./deployment-repository";
export type { NewRun, RunChanges, RunListOptions, RunStarter } from "./run-repository";
export { SpanRepository } from "./span-repository";
export { RunHistoryRepository, type BlockExecutionRecord, type PastRun } from "./run-history-repository";
export { BudgetRepository, monthStart, type CapScope, type StoredCap } from "./budget-repository";
export { RunEventRepository } from "./run-event-repository";
export { CopilotRepository, type CopilotCall } from "./copilot-repository";
export { SECRET_NAME_PATTERN, SecretRepository } from "./secret-repository";
export { PriceOverrideRepository } from "./price-override-repository";
export type { PriceOverridePosition } from "./price-override-repository";
export type { SecretPosition, StoredSecret } from "./secret-repository";
export { hashInvitationToken, INVITATION_LIFETIME_MS, WorkspaceRepository } from "./workspace-repository";
export type { MemberChangeHook, OpenInvitation } from "./workspace-repository";
export { loadSecretKey } from "./secret-key";
export { capabilityId } from "./capability-id";
export { assertWorkflowInWorkspace } from "./workflow-in-workspace";
export { decryptSecret, encryptSecret } from "./secret-cipher";
export { resolveDatabaseConfig } from "./database-config.mjs";

export type { SecretSummary, StoredRunEvent } from "./types";
export type { RunWrite, RunWriteResult } from "./run-writer";
export { uuidV7 } from "./uuid-v7";
export { newRunRow, runEndRow, storedSpanForm, type RunEnd, type RunEndRow, type RunInsertRow } from "./run-rows";
export { afterTimeAndId, keysetResult, timeAndIdOf } from "./keyset";
export type { KeysetPage, KeysetResult, TimeAndId } from "./keyset";
export {
  backoffMs,
  describeConnectionError,
  isDatabaseUnreachable,
  retryWhileUnreachable,
  survivePoolErrors,
} from "./connection-errors";
export { IDEMPOTENCY_KEY_HOURS, keyExpiry, type IdempotencyKeyStore, type KeyHolder } from "./idempotency-keys";
export { RunStartKeyRepository } from "./run-start-key-repository";
