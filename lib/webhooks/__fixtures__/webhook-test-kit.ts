import type { CreatedWebhook, CreateWebhookRequest, RunRecord, RunStatus, WebhookDeliveryView } from "@/contract";
import type { Member } from "@/lib/auth";
import { createDeploymentService } from "@/lib/deployments/deployment-service";
import { testMember } from "@/lib/http/test-members";
import { startRunTestKit, type RunTestKit } from "@/lib/runs/__fixtures__/run-test-kit";
import { WebhookDeliveryRepository } from "../webhook-delivery-repository";
import { webhookEndpoints, type WebhookEndpoints } from "../webhook-endpoints";
import { WebhookRepository } from "../webhook-repository";
import { SeenSignatures } from "../seen-signatures";
import { DEFAULT_WEBHOOK_TOLERANCE_S } from "../webhook-signature";
import { auditRequestsTo } from "@/lib/audit";

export interface WebhookTestKit {
  kit: RunTestKit;
  hooks: WebhookEndpoints;
  workspaceId: string;
  editor: Member;
  /** The receiver's clock (epoch milliseconds), which a test moves to age a timestamped signature. */
  clock: { now: number };
  /** A workflow whose Start declares `name` (string) and `count` (number, default 1) and whose Response answers them. */
  createEchoWorkflow(options?: { deploy?: boolean }): Promise<string>;
  createHook(workflowId: string, request?: CreateWebhookRequest, member?: Member): Promise<CreatedWebhook>;
  /** POSTs to /api/hooks/:hookId as an outside caller would (no credentials). */
  deliver(hookId: string, init?: { body?: BodyInit; headers?: Record<string, string> }): Promise<Response>;
  deliveries(hookId: string, member?: Member): Promise<WebhookDeliveryView[]>;
  /** The run once it has ended (as GET /api/runs/:id shows it, without spans). */
  finished(runId: string): Promise<RunRecord>;
  runCount(workflowId: string): Promise<number>;
  close(): Promise<void>;
}

const TERMINAL: readonly RunStatus[] = ["succeeded", "failed", "cancelled"];

export function echoDocument() {
  return {
    name: "Echo inputs",
    blocks: [
      {
        id: "start",
        type: "start",
        name: "Start",
        position: { x: 0, y: 0 },
        config: {
          inputs: [
            { name: "name", type: "string" },
            { name: "count", type: "number", default: 1 },
          ],
        },
      },
      {
        id: "reply",
        type: "response",
        name: "Reply",
        position: { x: 300, y: 0 },
        config: { data: { greeting: "Hello <start.name>", count: "<start.count>" } },
      },
    ],
    edges: [{ id: "start-reply", source: "start", target: "reply" }],
  };
}

/** A real database, runtime and the webhook endpoints over them, in one workspace. */
export async function startWebhookTestKit(): Promise<WebhookTestKit> {
  const clock = { now: Date.now() };
  const kit = await startRunTestKit();
  const { repositories, prisma, secretKey } = kit.database;
  const deps = {
    webhooks: new WebhookRepository(prisma, secretKey),
    deliveries: new WebhookDeliveryRepository(prisma),
    runs: kit.runtime.runs,
    repositories,
    signatures: { seen: new SeenSignatures(prisma), toleranceS: DEFAULT_WEBHOOK_TOLERANCE_S, now: () => clock.now },
  };
  const hooks = webhookEndpoints(
    () => deps,
    auditRequestsTo(() => prisma),
  );
  const workspaceId = await kit.database.createWorkspace();
  const editor = testMember(workspaceId, "editor");
  const deployments = createDeploymentService(repositories);

  return {
    kit,
    hooks,
    clock,
    workspaceId,
    editor,
    async createEchoWorkflow({ deploy = true } = {}) {
      const { id } = await repositories.workflows.create(workspaceId, echoDocument() as never);
      if (deploy) await deployments.deploy(workspaceId, id, { note: "", userId: null });
      return id;
    },
    async createHook(workflowId, request = {}, member = editor) {
      const response = await hooks.create(
        new Request(`http://localhost/api/workflows/${workflowId}/webhooks`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(request),
        }),
        { id: workflowId },
        member,
      );
      if (response.status !== 201)
        throw new Error(`creating the hook answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as CreatedWebhook;
    },
    deliver: (hookId, init = {}) =>
      hooks.receive(
        new Request(`http://localhost/api/hooks/${hookId}`, {
          method: "POST",
          body: init.body ?? null,
          headers: init.headers ?? {},
        }),
        { hookId },
      ),
    async deliveries(hookId, member = editor) {
      const response = await hooks.deliveries(
        new Request(`http://localhost/api/webhooks/${hookId}/deliveries`),
        { id: hookId },
        member,
      );
      if (response.status !== 200)
        throw new Error(`the deliveries answered ${response.status}: ${await response.text()}`);
      return ((await response.json()) as { deliveries: WebhookDeliveryView[] }).deliveries;
    },
    async finished(runId) {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const run = await repositories.runs.get(workspaceId, runId);
        if (TERMINAL.includes(run.status)) return run;
        if (Date.now() > deadline) throw new Error(`run ${runId} is still ${run.status}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    runCount: (workflowId) => prisma.run.count({ where: { workflowId } }),
    close: () => kit.close(),
  };
}
