import "server-only";
import type { AppliedPrice, Usage } from "@/contract";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { usageToColumns } from "./usage-columns";
import { uuidV7 } from "./uuid-v7";

/** One model call of a copilot request, as it is stored. */
export interface CopilotCall {
  model: string;
  startedAt: Date;
  endedAt: Date;
  usage: Usage;
  price?: AppliedPrice;
  error?: { code: string; message: string };
}

/** The copilot's reads of a workspace (names only) and the record of what each request spent. */
export class CopilotRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The workspace's knowledge bases and workflows by id and name (at most 200 each: a prompt, not a listing). */
  async names(workspaceId: string, exceptWorkflowId: string) {
    const [knowledgeBases, workflows, secrets] = await Promise.all([
      this.prisma.knowledgeBase.findMany({
        where: { workspaceId },
        select: { id: true, name: true },
        orderBy: { name: "asc" },
        take: 200,
      }),
      this.prisma.workflow.findMany({
        where: { workspaceId, id: { not: exceptWorkflowId } },
        select: { id: true, name: true },
        orderBy: { name: "asc" },
        take: 200,
      }),
      // Names only: the value columns are never selected.
      this.prisma.secret.findMany({ where: { workspaceId }, select: { name: true }, orderBy: { name: "asc" } }),
    ]);
    return { knowledgeBases, workflows, secretNames: secrets.map((secret) => secret.name) };
  }

  /**
   * Stores a copilot request as a finished top-level run of the workflow with trigger `copilot`
   * and one `model` span per call, so usage (by trigger, model, workflow, day) and the monthly
   * budgets count it as they count runs, with no query of their own.
   */
  async record(
    workspaceId: string,
    workflowId: string,
    request: { total: Usage; calls: CopilotCall[]; startedAt: Date; failed?: { code: string; message: string } },
  ): Promise<string> {
    const id = uuidV7();
    const endedAt = new Date();
    const { costReasoning: _reasoning, ...totals } = usageToColumns(request.total);
    await this.prisma.$transaction([
      this.prisma.run.create({
        data: {
          id,
          workspaceId,
          workflowId,
          status: request.failed ? "failed" : "succeeded",
          input: {},
          output: { calls: request.calls.length },
          ...(request.failed ? { error: request.failed } : {}),
          startedAt: request.startedAt,
          queuedAt: request.startedAt,
          endedAt,
          durationMs: endedAt.getTime() - request.startedAt.getTime(),
          triggerKind: "copilot",
          ...totals,
          costReasoning: _reasoning,
        },
      }),
      ...request.calls.map((call, index) =>
        this.prisma.span.create({
          data: {
            id: `${id}:copilot:${index}`,
            runId: id,
            kind: "model",
            blockId: "copilot",
            blockName: "Copilot",
            blockType: "copilot",
            name: call.model,
            model: call.model,
            status: call.error ? "failed" : "succeeded",
            startedAt: call.startedAt,
            endedAt: call.endedAt,
            durationMs: call.endedAt.getTime() - call.startedAt.getTime(),
            ...(call.error ? { error: call.error } : {}),
            ...(call.price ? { price: call.price as never } : {}),
            ...usageToColumns(call.usage),
          },
        }),
      ),
    ]);
    return id;
  }
}
