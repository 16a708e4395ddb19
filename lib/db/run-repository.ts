import "server-only";
import {
  type ErrorInfo,
  type RunTrigger,
  type RunTriggerKind,
  type SpanRecord,
  type Usage,
  isRunTriggerKind,
  RUN_STATUSES,
  RUN_TRIGGER_KINDS,
  type RunStatus,
  type RunSummary,
  type RunRecord,
  type RerunOf,
  type RunBudget,
  type RunOverhead,
} from "@/contract";
import { emptyUsage } from "@/executor";
import type { PrismaClient, Run } from "@/lib/generated/prisma/client";
import { InvalidInputError, NotFoundError } from "./errors";
import { afterTimeAndId, keysetResult, timeAndIdOf, type KeysetResult, type TimeAndId } from "./keyset";
import { isPrismaError, toDate, toJsonValue, toNullableJson } from "./json-value";
import { toSpanRecord } from "./span-repository";
import { assertWorkflowInWorkspace } from "./workflow-in-workspace";
import { costFromColumns, tokensFromColumns, usageToColumns } from "./usage-columns";

export interface NewRun {
  /** Defaults to a new UUIDv7. */
  id?: string;
  workspaceId: string;
  workflowId: string;
  /** Defaults to `queued`. */
  status?: RunStatus;
  input?: Record<string, unknown>;
  /** Defaults to now. */
  startedAt?: Date | string;
  /** When it was asked for, which orders the run list; defaults to now. */
  queuedAt?: Date | string;
  /** The workflow document the run executes (kept so that a resumed run goes on with the same graph). */
  document?: unknown;
  /** The workflow's version that document is: the draft's, or the deployment's. */
  workflowVersion?: number;
  parentRunId?: string;
  /** The process executing it, when it starts at once. */
  worker?: string;
  /** What started it; defaults to the editor. */
  trigger?: RunTrigger;
  /** The deployment it runs (left out: the draft). */
  deploymentId?: string;
  /** Run from a block: the finished run it reuses the upstream results of, and the block it runs from. */
  rerunOf?: RerunOf;
  /** A replay: the run whose recorded model and tool answers it uses. */
  replayOf?: string;
  /** A test run: side effects are simulated. */
  test?: boolean;
  /** The run's own cap as it applies (the lower of the workflow's and the request's). */
  budget?: RunBudget;
  /** The caller's W3C `traceparent` (lib/observability): the run's exported trace is a child of it. */
  traceParent?: string;
}

export interface RunChanges {
  status?: RunStatus;
  output?: unknown;
  error?: ErrorInfo | null;
  startedAt?: Date | string;
  endedAt?: Date | string | null;
  durationMs?: number | null;
  /** The run's totals so far (replaces the stored ones). */
  usage?: Usage;
  /** The process holding it; null while it waits for a person and no process does. */
  worker?: string | null;
  /** Where its time went that was no block's (set with its end). */
  overhead?: RunOverhead;
}

export interface RunListOptions {
  status?: RunStatus | readonly RunStatus[];
  /** At most this many runs (default 50, at most 500). */
  limit?: number;
  /** The runs after this position: the `next` of the page before. */
  after?: TimeAndId;
  /** Only runs started by these triggers. */
  trigger?: readonly RunTriggerKind[];
  /** Only runs of this deployment; null: only runs of the draft. */
  deploymentId?: string | null;
  /** Only runs started by this member (with a session) or with this API key (`startedBy` below). */
  startedBy?: RunStarter;
}

/** Who started a run: a member with a session, or an API key. */
export type RunStarter = { userId: string } | { apiKeyId: string };

/** The run filter of a starter. */
export function startedByFilter(starter: RunStarter | undefined): Partial<Record<"userId" | "apiKeyId", string>> {
  if (!starter) return {};
  return "userId" in starter ? { userId: starter.userId } : { apiKeyId: starter.apiKeyId };
}

/**
 * Runs. Reads take the workspace first and answer `not_found` for a run of another workspace;
 * `update` is for the run service, which only changes runs it created.
 */
export class RunRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * `workflowChecked`: the caller has just read the workflow from the workspace (the run service),
   * so the check that it belongs there is not made again.
   * @throws NotFoundError when the workflow does not exist in the workspace
   */
  async create(run: NewRun, options: { workflowChecked?: boolean } = {}): Promise<RunRecord> {
    const status = checkStatus(run.status ?? "queued");
    if (!options.workflowChecked) await this.assertWorkflow(run.workspaceId, run.workflowId);
    try {
      const row = await this.prisma.run.create({
        data: {
          ...(run.id === undefined ? {} : { id: run.id }),
          workspaceId: run.workspaceId,
          workflowId: run.workflowId,
          status,
          input: toJsonValue(run.input ?? {}, "input"),
          ...(run.document === undefined ? {} : { document: toJsonValue(run.document, "document") }),
          ...(run.workflowVersion === undefined ? {} : { workflowVersion: checkVersion(run.workflowVersion) }),
          ...(run.traceParent === undefined ? {} : { traceParent: run.traceParent }),
          ...(run.parentRunId === undefined ? {} : { parentRunId: run.parentRunId }),
          ...(run.worker === undefined ? {} : { worker: run.worker }),
          ...triggerColumns(run.trigger),
          ...(run.deploymentId === undefined ? {} : { deploymentId: run.deploymentId }),
          ...(run.rerunOf === undefined
            ? {}
            : { rerunOfRunId: run.rerunOf.runId, rerunOfBlockId: run.rerunOf.blockId }),
          ...(run.replayOf === undefined ? {} : { replayOfRunId: run.replayOf }),
          ...(run.test ? { test: true } : {}),
          ...(run.budget === undefined ? {} : { budget: toJsonValue(run.budget, "budget") }),
          // A run that has spent nothing yet costs $0 (known), not "unpriced".
          ...usageToColumns(emptyUsage()),
          ...(run.startedAt === undefined ? {} : { startedAt: toDate(run.startedAt, "startedAt") }),
          ...(run.queuedAt === undefined ? {} : { queuedAt: toDate(run.queuedAt, "queuedAt") }),
        },
      });
      return toStoredRun(row);
    } catch (error) {
      if (isPrismaError(error, "P2003")) throw new NotFoundError("Workflow", run.workflowId);
      throw error;
    }
  }

  /**
   * Applies `changes`. With `onlyIfStatus`, the run changes only while its status is one of those
   * (checked in the same statement) and null is returned when it is not: for example a cancel that
   * must not overwrite a run that has already succeeded.
   * @throws NotFoundError
   */
  async update(
    id: string,
    changes: RunChanges,
    options: { onlyIfStatus?: readonly RunStatus[] } = {},
  ): Promise<RunRecord | null> {
    const data = toRunData(changes);
    try {
      const row = await this.prisma.run.update({
        where: { id, ...(options.onlyIfStatus ? { status: { in: [...options.onlyIfStatus] } } : {}) },
        data,
      });
      return toStoredRun(row);
    } catch (error) {
      if (!isPrismaError(error, "P2025")) throw error;
      const exists = await this.prisma.run.findUnique({ where: { id }, select: { id: true } });
      if (!exists) throw new NotFoundError("Run", id);
      return null;
    }
  }

  private assertWorkflow(workspaceId: string, workflowId: string): Promise<void> {
    return assertWorkflowInWorkspace(this.prisma, workspaceId, workflowId);
  }

  /** @throws NotFoundError */
  async get(workspaceId: string, id: string): Promise<RunRecord> {
    const row = await this.prisma.run.findFirst({ where: { id, workspaceId } });
    if (!row) throw new NotFoundError("Run", id);
    return toStoredRun(row);
  }

  /** The workflow document the run ran and its version (either null for runs stored before they were kept). @throws NotFoundError */
  async documentOf(
    workspaceId: string,
    id: string,
  ): Promise<{ workflowId: string; workflowVersion: number | null; document: unknown }> {
    const row = await this.prisma.run.findFirst({
      where: { id, workspaceId },
      select: { workflowId: true, workflowVersion: true, document: true },
    });
    if (!row) throw new NotFoundError("Run", id);
    return row;
  }

  /**
   * The run whose recordings stand behind this one's (null for other runs and unknown ids): a
   * replay's source, or a re-run's source, whose reused blocks recorded nothing in the re-run. For
   * the process executing a replay, which already holds the run.
   */
  async recordingSourceOf(id: string): Promise<string | null> {
    const row = await this.prisma.run.findUnique({
      where: { id },
      select: { replayOfRunId: true, rerunOfRunId: true },
    });
    return row?.replayOfRunId ?? row?.rerunOfRunId ?? null;
  }

  /** The run that started this one as a child (a workflow tool or Workflow block), null for a top-level run. @throws NotFoundError */
  async parentRunOf(workspaceId: string, id: string): Promise<string | null> {
    const row = await this.prisma.run.findFirst({ where: { id, workspaceId }, select: { parentRunId: true } });
    if (!row) throw new NotFoundError("Run", id);
    return row.parentRunId;
  }

  /** The run with its spans in start order. @throws NotFoundError */
  async getWithSpans(workspaceId: string, id: string): Promise<RunRecord & { spans: SpanRecord[] }> {
    const row = await this.prisma.run.findFirst({
      where: { id, workspaceId },
      include: { spans: { orderBy: [{ startedAt: "asc" }, { id: "asc" }] } },
    });
    if (!row) throw new NotFoundError("Run", id);
    return { ...toStoredRun(row), spans: row.spans.map(toSpanRecord) };
  }

  /**
   * A worker takes a run: a queued run starts (startedAt now), a running or paused one whose
   * process died is taken over (`recoveries` + 1). Answers the run as it was before, or null when
   * it has ended (cancelled while queued, say) and must not execute. A parked run is taken only
   * when `mayGoOn` (if given) says so: else it stays parked and the answer is null too.
   */
  async claim(
    id: string,
    worker: string,
    options: { mayGoOn?: (id: string) => Promise<boolean> } = {},
  ): Promise<{
    run: RunRecord;
    workspaceId: string;
    document: unknown;
    fresh: boolean;
    parked?: boolean;
    traceParent?: string;
  } | null> {
    // The common case in one round trip: a queued run starts.
    const started = await this.prisma.$queryRawUnsafe<Run[]>(
      `UPDATE runs SET status = 'running', worker = $2, started_at = now() WHERE id = $1 AND status = 'queued'
       RETURNING id, workspace_id AS "workspaceId", workflow_id AS "workflowId", status, input, document, workflow_version AS "workflowVersion", queued_at AS "queuedAt", started_at AS "startedAt", worker, recoveries,
         deployment_id AS "deploymentId", trigger_kind AS "triggerKind", api_key_id AS "apiKeyId", user_id AS "userId", webhook_id AS "webhookId", schedule_id AS "scheduleId", conversation_id AS "conversationId",
         rerun_of_run_id AS "rerunOfRunId", rerun_of_block_id AS "rerunOfBlockId", replay_of_run_id AS "replayOfRunId", test, budget, trace_parent AS "traceParent"`,
      id,
      worker,
    );
    const first = started[0];
    if (first) {
      const run: RunRecord = {
        ...toStoredRun({
          ...emptyRunRow,
          ...first,
          startedAt: new Date(first.startedAt),
          queuedAt: new Date(first.queuedAt),
        }),
      };
      return {
        run,
        workspaceId: first.workspaceId,
        document: first.document,
        fresh: true,
        ...(first.traceParent ? { traceParent: first.traceParent } : {}),
      };
    }
    const row = await this.prisma.run.findUnique({ where: { id } });
    if (!row) throw new NotFoundError("Run", id);
    if (row.status === "queued") {
      const startedAt = new Date();
      const { count } = await this.prisma.run.updateMany({
        where: { id, status: "queued" },
        data: { status: "running", worker, startedAt },
      });
      if (count === 1)
        return {
          run: toStoredRun({ ...row, status: "running", worker, startedAt }),
          workspaceId: row.workspaceId,
          document: row.document,
          fresh: true,
          ...(row.traceParent ? { traceParent: row.traceParent } : {}),
        };
      return this.claim(id, worker, options);
    }
    if (row.status !== "running" && row.status !== "paused") return null;
    // Parked (paused, held by no process): it waited for a person and goes on. Otherwise its process died.
    const parked = row.status === "paused" && row.worker === null;
    if (parked && options.mayGoOn && !(await options.mayGoOn(id))) return null;
    const { count } = await this.prisma.run.updateMany({
      where: { id, status: row.status, worker: row.worker },
      data: { status: "running", worker, ...(parked || row.worker === worker ? {} : { recoveries: { increment: 1 } }) },
    });
    if (count === 0) return this.claim(id, worker, options);
    return {
      run: toStoredRun(row),
      workspaceId: row.workspaceId,
      document: row.document,
      fresh: false,
      parked,
      ...(row.traceParent ? { traceParent: row.traceParent } : {}),
    };
  }

  /** How many runs wait ahead of a queued one (everywhere), plus one; undefined when it is not queued. */
  async queuePosition(id: string): Promise<number | undefined> {
    const row = await this.prisma.run.findUnique({ where: { id }, select: { status: true, queuedAt: true } });
    if (row?.status !== "queued") return undefined;
    return 1 + (await this.prisma.run.count({ where: { status: "queued", queuedAt: { lt: row.queuedAt } } }));
  }

  /** Runs not yet ended that the given processes were executing. */
  async listLiveOf(
    workers: readonly string[],
  ): Promise<Array<RunRecord & { workspaceId: string; parentRunId: string | null }>> {
    if (workers.length === 0) return [];
    const rows = await this.prisma.run.findMany({
      where: { worker: { in: [...workers] }, status: { in: ["running", "paused"] } },
    });
    return rows.map((row) => ({ ...toStoredRun(row), workspaceId: row.workspaceId, parentRunId: row.parentRunId }));
  }

  /** Queued runs stored before `before`, oldest first: ones whose hand-over to the queue may have been lost. */
  async listQueuedBefore(before: Date, limit = 500): Promise<Array<{ id: string; workspaceId: string }>> {
    return this.prisma.run.findMany({
      where: { status: "queued", queuedAt: { lt: before } },
      orderBy: { queuedAt: "asc" },
      take: limit,
      select: { id: true, workspaceId: true },
    });
  }

  /** The workspace a run belongs to (for work that starts from a run id alone, such as a worker). @throws NotFoundError */
  async workspaceOf(id: string): Promise<string> {
    const row = await this.prisma.run.findUnique({ where: { id }, select: { workspaceId: true } });
    if (!row) throw new NotFoundError("Run", id);
    return row.workspaceId;
  }

  /** The first page of a workflow's runs, newest first (see pageByWorkflow). */
  async listByWorkflow(workspaceId: string, workflowId: string, options: RunListOptions = {}): Promise<RunSummary[]> {
    return (await this.pageByWorkflow(workspaceId, workflowId, options)).items;
  }

  /**
   * A page of a workflow's runs, newest first. Ordered by when each was asked for (queuedAt, then
   * id) rather than startedAt, which moves when a queued run starts and would let a run jump past
   * a client walking the pages.
   * @throws NotFoundError when the workflow is not one of the workspace's
   */
  async pageByWorkflow(
    workspaceId: string,
    workflowId: string,
    options: RunListOptions = {},
  ): Promise<KeysetResult<RunSummary, TimeAndId>> {
    const statuses =
      options.status === undefined
        ? undefined
        : typeof options.status === "string"
          ? [options.status]
          : [...options.status];
    statuses?.forEach(checkStatus);
    const limit = options.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      throw new InvalidInputError("limit must be a whole number from 1 to 500", "limit");
    await this.assertWorkflow(workspaceId, workflowId);
    const rows = await this.prisma.run.findMany({
      where: {
        workflowId,
        workspaceId,
        ...(statuses ? { status: { in: statuses } } : {}),
        // A copilot request is stored as a run only so usage and budgets count it: listed when asked for by trigger.
        triggerKind: options.trigger ? { in: options.trigger.map(checkTriggerKind) } : { not: "copilot" },
        ...(options.deploymentId === undefined ? {} : { deploymentId: options.deploymentId }),
        ...startedByFilter(options.startedBy),
        ...afterTimeAndId("queuedAt", "id", "desc", options.after),
      },
      orderBy: [{ queuedAt: "desc" }, { id: "desc" }],
      take: limit + 1,
    });
    return keysetResult(rows, limit, toRunSummary, (row) => timeAndIdOf(row.queuedAt, row.id));
  }
}

function checkStatus(status: string): RunStatus {
  if (!(RUN_STATUSES as readonly string[]).includes(status)) {
    throw new InvalidInputError(`status must be one of ${RUN_STATUSES.join(", ")}; got "${status}"`, "status");
  }
  return status as RunStatus;
}

function checkVersion(version: number): number {
  if (!Number.isSafeInteger(version) || version < 1)
    throw new InvalidInputError(
      `workflowVersion must be a whole number of at least 1, got ${version}`,
      "workflowVersion",
    );
  return version;
}

function checkTriggerKind(kind: string): RunTriggerKind {
  if (!isRunTriggerKind(kind))
    throw new InvalidInputError(`trigger must be one of ${RUN_TRIGGER_KINDS.join(", ")}; got "${kind}"`, "trigger");
  return kind;
}

function triggerColumns(trigger: RunTrigger | undefined) {
  if (!trigger) return {};
  return {
    triggerKind: checkTriggerKind(trigger.kind),
    apiKeyId: trigger.apiKeyId ?? null,
    userId: trigger.userId ?? null,
    webhookId: trigger.webhookId ?? null,
    scheduleId: trigger.scheduleId ?? null,
    conversationId: trigger.conversationId ?? null,
  };
}

/**
 * The trigger as the API shows it: the kind, and only the ids it has. A hook's id is left out: it
 * is the hook's credential (its URL), and every member who may read runs may not start them.
 */
function triggerOf(
  row: Pick<Run, "triggerKind" | "apiKeyId" | "userId" | "webhookId" | "scheduleId" | "conversationId">,
): RunTrigger {
  return {
    kind: isRunTriggerKind(row.triggerKind) ? row.triggerKind : "editor",
    ...(row.apiKeyId ? { apiKeyId: row.apiKeyId } : {}),
    ...(row.userId ? { userId: row.userId } : {}),
    ...(row.scheduleId ? { scheduleId: row.scheduleId } : {}),
    ...(row.conversationId ? { conversationId: row.conversationId } : {}),
  };
}

function toRunData(changes: RunChanges) {
  if (changes.durationMs != null && !(Number.isSafeInteger(changes.durationMs) && changes.durationMs >= 0)) {
    throw new InvalidInputError(
      `durationMs must be a whole number of at least 0, got ${changes.durationMs}`,
      "durationMs",
    );
  }
  return {
    ...(changes.status === undefined ? {} : { status: checkStatus(changes.status) }),
    ...(changes.output === undefined ? {} : { output: toNullableJson(changes.output, "output") }),
    ...(changes.error === undefined ? {} : { error: toNullableJson(changes.error, "error") }),
    ...(changes.startedAt === undefined ? {} : { startedAt: toDate(changes.startedAt, "startedAt") }),
    ...(changes.endedAt === undefined
      ? {}
      : { endedAt: changes.endedAt === null ? null : toDate(changes.endedAt, "endedAt") }),
    ...(changes.durationMs === undefined ? {} : { durationMs: changes.durationMs }),
    ...(changes.usage === undefined ? {} : usageToColumns(changes.usage)),
    ...(changes.worker === undefined ? {} : { worker: changes.worker }),
    ...(changes.overhead === undefined ? {} : { overhead: toJsonValue(changes.overhead, "overhead") }),
  };
}

/** A stored run as the run lists show it (the workflow's list and the workspace's). */
export function toRunSummary(row: Run): RunSummary {
  return {
    id: row.id,
    workflowId: row.workflowId,
    status: row.status as RunStatus,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
    durationMs: row.durationMs,
    tokens: tokensFromColumns(row),
    cost: costFromColumns(row),
    unpriced: row.unpriced,
    estimated: row.estimated,
    trigger: triggerOf(row),
    deploymentId: row.deploymentId,
    workflowVersion: row.workflowVersion,
    rerunOf: row.rerunOfRunId && row.rerunOfBlockId ? { runId: row.rerunOfRunId, blockId: row.rerunOfBlockId } : null,
    replayOf: row.replayOfRunId,
    test: row.test,
    budget: (row.budget as RunBudget | null) ?? null,
  };
}

/** The columns a run just claimed does not need read back: it has not spent or ended yet. */
const emptyRunRow = {
  output: null,
  error: null,
  endedAt: null,
  durationMs: null,
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  cachedPromptTokens: null,
  cacheWriteTokens: null,
  reasoningTokens: null,
  costInput: null,
  costOutput: null,
  costTotal: null,
  costReasoning: null,
  unpriced: false,
  estimated: false,
  parentRunId: null,
  overhead: null,
} satisfies Partial<Run>;

function toStoredRun(row: Run): RunRecord {
  return {
    ...toRunSummary(row),
    input: (row.input ?? {}) as Record<string, unknown>,
    output: row.output ?? null,
    error: (row.error ?? null) as ErrorInfo | null,
    queuedAt: row.queuedAt.toISOString(),
    worker: row.worker,
    recoveries: row.recoveries,
    overhead: (row.overhead as RunOverhead | null) ?? null,
  };
}
