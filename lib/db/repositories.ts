import "server-only";
import { BudgetRepository } from "./budget-repository";
import { CheckpointRepository } from "./checkpoint-repository";
import { CopilotRepository } from "./copilot-repository";
import { DeploymentRepository } from "./deployment-repository";
import { getDatabase, type PrismaClient } from "./client";
import { resolveDatabaseConfig } from "./database-config.mjs";
import { PriceOverrideRepository } from "./price-override-repository";
import { RunEventRepository } from "./run-event-repository";
import { RunHistoryRepository } from "./run-history-repository";
import { RunRepository } from "./run-repository";
import { RunStartKeyRepository } from "./run-start-key-repository";
import { RunWriter } from "./run-writer";
import { SecretRepository } from "./secret-repository";
import { loadSecretKey } from "./secret-key";
import { SpanRepository } from "./span-repository";
import { WorkerRepository } from "./worker-repository";
import { WorkflowRepository } from "./workflow-repository";
import { WorkspaceRepository } from "./workspace-repository";
import { WorkspaceRunRepository } from "./workspace-run-repository";

export interface Repositories {
  workflows: WorkflowRepository;
  deployments: DeploymentRepository;
  runs: RunRepository;
  /** Every run of a workspace, across its workflows (the Runs page). */
  workspaceRuns: WorkspaceRunRepository;
  /** Recent runs of a workflow as the cost estimate reads them. */
  runHistory: RunHistoryRepository;
  spans: SpanRepository;
  runEvents: RunEventRepository;
  secrets: SecretRepository;
  workspaces: WorkspaceRepository;
  checkpoints: CheckpointRepository;
  workers: WorkerRepository;
  /** Monthly caps and what was spent against them. */
  budgets: BudgetRepository;
  /** A workspace's own model prices. */
  priceOverrides: PriceOverrideRepository;
  /** The copilot's names of a workspace and the record of what its requests spent. */
  copilot: CopilotRepository;
  /** Group-commit writer of runs' spans, events and checkpoints. */
  runWriter: RunWriter;
  /** The Idempotency-Keys run starts claimed. */
  runStartKeys: RunStartKeyRepository;
}

/**
 * Every repository over one Prisma client. The secret key defaults to TRELLIS_SECRET_KEY or
 * DATA_DIR/secret.key, loaded when a secret is first touched.
 */
export function createRepositories(
  prisma: PrismaClient,
  options: { secretKey?: Buffer | (() => Buffer); url?: string; backend?: "postgres" | "embedded" } = {},
): Repositories {
  const key =
    options.secretKey ?? (() => loadSecretKey({ env: process.env, dataDir: resolveDatabaseConfig().dataDir }));
  const secretKey = typeof key === "function" ? key : () => key;
  return {
    workflows: new WorkflowRepository(prisma),
    deployments: new DeploymentRepository(prisma),
    runs: new RunRepository(prisma),
    workspaceRuns: new WorkspaceRunRepository(prisma),
    runHistory: new RunHistoryRepository(prisma),
    spans: new SpanRepository(prisma),
    runEvents: new RunEventRepository(prisma),
    secrets: new SecretRepository(prisma, secretKey),
    workspaces: new WorkspaceRepository(prisma),
    checkpoints: new CheckpointRepository(prisma, secretKey),
    workers: new WorkerRepository(prisma),
    budgets: new BudgetRepository(prisma),
    priceOverrides: new PriceOverrideRepository(prisma),
    copilot: new CopilotRepository(prisma),
    runWriter: new RunWriter(prisma, options.url, options.backend === "embedded"),
    runStartKeys: new RunStartKeyRepository(prisma),
  };
}

const repositoryCache = new WeakMap<PrismaClient, Repositories>();

/** The app's repositories over getPrisma(). */
export function getRepositories(): Repositories {
  const { prisma, url, backend } = getDatabase();
  let repositories = repositoryCache.get(prisma);
  if (!repositories) {
    repositories = createRepositories(prisma, url ? { url, backend } : {});
    repositoryCache.set(prisma, repositories);
  }
  return repositories;
}
