import "server-only";
import { WEBHOOK_SIGNATURE_HEADER, type WebhookRunResult } from "@/contract";
import { isTrellisError } from "@/executor";
import type { Repositories } from "@/lib/db";
import { NotFoundError } from "@/lib/db";
import { errorResponse, httpStatusOf } from "@/lib/http/errors";
import { runIntake } from "@/lib/runs/run-intake";
import type { RunService } from "@/lib/runs/run-service";
import { claimKey, idempotencyKeyOf } from "@/lib/http/idempotency-claim";
import { readWebhookBody, webhookInputOf } from "./webhook-body";
import type { DeliveryOutcome, WebhookDeliveryRepository } from "./webhook-delivery-repository";
import type { ReceivingWebhook, WebhookRepository } from "./webhook-repository";
import type { SeenSignatures } from "./seen-signatures";
import { replayedSignature, verifyWebhookSignature, type SignatureClock } from "./webhook-signature";

export interface WebhookReceiverDependencies {
  webhooks: WebhookRepository;
  deliveries: WebhookDeliveryRepository;
  runs: Pick<RunService, "start">;
  repositories: Pick<Repositories, "runs">;
  /** The tolerance window of timestamped signatures, and the signatures already used within it. */
  signatures: SignatureClock & { seen: SeenSignatures };
}

/** The status and message a refusal is answered with (errorResponse's), to record beside it. */
function refusalOf(error: unknown): { status: number; error: string } {
  const status = isTrellisError(error) ? httpStatusOf(error.code) : 500;
  return status === 500 || !isTrellisError(error)
    ? { status: 500, error: "Something went wrong on the server." }
    : { status, error: error.message };
}

/** Writes a delivery's row once: settles the claim it holds, else inserts it. */
class DeliveryLog {
  private claimedId: string | undefined;
  private written = false;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly webhookId: string,
  ) {}

  claimed(id: string): void {
    this.claimedId = id;
  }

  async write(outcome: DeliveryOutcome): Promise<void> {
    if (this.written) return;
    this.written = true;
    if (this.claimedId) await this.deliveries.settle(this.claimedId, outcome);
    else await this.deliveries.record(this.webhookId, outcome);
  }
}

/** The signature of a hook with a secret; a timestamped one is also spent, so its replay is refused. */
async function checkSignature(
  signatures: WebhookReceiverDependencies["signatures"],
  hook: ReceivingWebhook,
  body: Uint8Array,
  header: string | null,
) {
  const verified = verifyWebhookSignature(hook.secret!, body, header, signatures);
  if (verified.form === "body-only") return;
  const expiresAt = new Date((verified.timestampS + signatures.toleranceS) * 1000);
  if (!(await signatures.seen.remember(hook.id, verified.signature, expiresAt, new Date(signatures.now()))))
    throw replayedSignature();
}

/**
 * One delivery, checked in the order that reveals least: the body is read within the size limit
 * (413), its signature checked when the hook has a secret (401; a timestamped one also against the
 * clock and the signatures already used), then its media type and content
 * (415, 400), then the Idempotency-Key (a repeat answers the first run's id); only then does a run
 * of the active deployment start (409 not_deployed without one). Nothing is started on any refusal.
 */
async function deliver(
  deps: WebhookReceiverDependencies,
  hook: ReceivingWebhook,
  request: Request,
  log: DeliveryLog,
): Promise<Response> {
  const body = await readWebhookBody(request);
  if (hook.secret !== null)
    await checkSignature(deps.signatures, hook, body, request.headers.get(WEBHOOK_SIGNATURE_HEADER));
  const key = idempotencyKeyOf(request);
  const input = await webhookInputOf(body, request.headers.get("content-type"));
  if (key !== undefined) {
    const claim = await claimKey(deps.deliveries, hook.id, key);
    if ("replayOf" in claim) {
      await log.write({ status: 202, runId: claim.replayOf, replayed: true });
      return Response.json({ runId: claim.replayOf }, { status: 202, headers: { "idempotent-replayed": "true" } });
    }
    log.claimed(claim.claimedId);
  }
  const trigger = { kind: "webhook" as const, webhookId: hook.id };
  const live = await runIntake().accept(() =>
    deps.runs.start(hook.workspaceId, hook.workflowId, input, { target: "active-deployment", trigger }),
  );
  // Recorded as soon as the run exists, so a repeat of its key (and the deliveries list) sees it while it runs.
  await log.write({ status: hook.wait ? 200 : 202, runId: live.runId });
  if (!hook.wait) return Response.json({ runId: live.runId }, { status: 202 });
  // Whoever holds the URL gets the outcome, not the trace: block inputs, outputs and costs stay with the workspace.
  const run = await live.done;
  const answer: WebhookRunResult = {
    runId: run.id,
    status: run.status,
    output: run.output,
    error: run.error ? { code: run.error.code, message: run.error.message } : null,
  };
  return Response.json(answer);
}

/**
 * POST /api/hooks/:hookId. The hook id is the capability: an unknown one is 404 and nothing is
 * recorded (there is no hook to record it under); every other delivery is recorded with the
 * status it was answered with, refusals included.
 */
export async function receiveWebhook(
  deps: WebhookReceiverDependencies,
  hookId: string,
  request: Request,
): Promise<Response> {
  const hook = typeof hookId === "string" && hookId !== "" ? await deps.webhooks.findReceiving(hookId) : null;
  if (!hook) throw new NotFoundError("Webhook", hookId);
  const log = new DeliveryLog(deps.deliveries, hook.id);
  try {
    return await deliver(deps, hook, request, log);
  } catch (error) {
    await log.write(refusalOf(error));
    return errorResponse(error);
  }
}
