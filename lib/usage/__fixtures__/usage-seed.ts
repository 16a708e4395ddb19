import { randomUUID } from "node:crypto";
import type { RunTrigger, Usage } from "@/contract";
import { usageToColumns } from "@/lib/db/usage-columns";
import type { TestDatabase } from "@/lib/db/test-database";

/**
 * Stores runs and model calls as finished runs leave them, with chosen dollars and times, so the
 * usage sums can be checked against known figures. Costs are written as the recorder writes them
 * (the run's totals through the run repository, the spans' columns by usageToColumns).
 */

export function usage(
  prompt: number,
  completion: number,
  dollars: number | null,
  options: { estimated?: boolean } = {},
): Usage {
  const input = dollars === null ? 0 : Number((dollars * 0.25).toFixed(10));
  return {
    tokens: { prompt, completion, total: prompt + completion },
    cost: dollars === null ? null : { input, output: Number((dollars - input).toFixed(10)), total: dollars },
    ...(dollars === null ? { unpriced: true } : {}),
    ...(options.estimated ? { estimated: true } : {}),
  };
}

export interface SeededRun {
  workflowId: string;
  queuedAt: string;
  trigger?: RunTrigger;
  usage: Usage;
  parentRunId?: string;
  /** The model calls it made, each with its usage; their dollars should add up to the run's. */
  calls?: Array<{ model: string; usage: Usage }>;
}

export function usageSeeder(database: TestDatabase) {
  return {
    async createUser(name: string): Promise<string> {
      const id = randomUUID();
      await database.prisma.user.create({ data: { id, name, email: `${id}@example.com` } });
      return id;
    },
    async createApiKey(workspaceId: string, userId: string, name: string): Promise<{ id: string; prefix: string }> {
      const prefix = `trl_${randomUUID().slice(0, 8)}`;
      const key = await database.prisma.apiKey.create({
        data: { workspaceId, userId, name, prefix, hash: randomUUID() },
      });
      return { id: key.id, prefix };
    },
    async createWorkflow(workspaceId: string, name: string): Promise<string> {
      return (
        await database.repositories.workflows.create(workspaceId, {
          name,
          description: "",
          variables: {},
          blocks: [],
          edges: [],
        } as never)
      ).id;
    },
    async storeRun(workspaceId: string, run: SeededRun): Promise<string> {
      const { runs } = database.repositories;
      const stored = await runs.create({
        workspaceId,
        workflowId: run.workflowId,
        status: "succeeded",
        queuedAt: run.queuedAt,
        startedAt: run.queuedAt,
        ...(run.trigger ? { trigger: run.trigger } : {}),
        ...(run.parentRunId ? { parentRunId: run.parentRunId } : {}),
      });
      await runs.update(stored.id, { usage: run.usage, endedAt: run.queuedAt, durationMs: 1 });
      for (const [index, call] of (run.calls ?? []).entries()) {
        await database.prisma.span.create({
          data: {
            id: randomUUID(),
            runId: stored.id,
            kind: "model",
            blockId: "agent",
            blockName: "Agent",
            blockType: "agent",
            name: call.model,
            model: call.model,
            status: "succeeded",
            startedAt: new Date(Date.parse(run.queuedAt) + index),
            ...usageToColumns(call.usage),
          },
        });
      }
      return stored.id;
    },
  };
}
