"use client";

import { runHref } from "@/components/ui/run-href";
import Link from "next/link";
import { WEBHOOK_DELIVERIES_KEPT, type WebhookDeliveryView } from "@/contract";
import { useWebhookDeliveries } from "./use-webhooks";
import { formatDateTime } from "@/components/ui/date-time";

/** What a delivery's answer meant, in words beside its HTTP status. */
export function deliveryOutcome(delivery: Pick<WebhookDeliveryView, "status" | "replayed">): {
  text: string;
  tone: "ok" | "refused" | "pending";
} {
  if (delivery.status === null) return { text: "being answered", tone: "pending" };
  if (delivery.replayed) return { text: "repeat: first run's id", tone: "ok" };
  const words: Record<number, string> = {
    200: "run finished",
    202: "run started",
    400: "bad body",
    401: "bad signature",
    409: "refused",
    413: "too large",
    415: "unsupported type",
  };
  const tone = delivery.status < 300 ? "ok" : "refused";
  return { text: words[delivery.status] ?? (delivery.status >= 500 ? "server error" : "refused"), tone };
}

const TONES = {
  ok: "bg-emerald-50 text-emerald-800",
  refused: "bg-red-50 text-red-800",
  pending: "bg-slate-100 text-slate-700",
} as const;

/** The hook's last deliveries (asked again every few seconds), each with its status and a link opening its run in the editor. */
export function WebhookDeliveries({ webhookId, workflowId }: { webhookId: string; workflowId: string }) {
  const deliveries = useWebhookDeliveries(webhookId);
  if (deliveries.isError)
    return <p className="text-xs text-red-700">Could not load the deliveries: {deliveries.error.message}</p>;
  if (!deliveries.data) return <p className="text-xs text-slate-500">Loading deliveries…</p>;
  if (deliveries.data.length === 0)
    return (
      <p className="text-xs text-slate-500" data-testid="no-deliveries">
        No deliveries yet.
      </p>
    );
  return (
    <table className="w-full text-xs" aria-label={`Last ${WEBHOOK_DELIVERIES_KEPT} deliveries`}>
      <thead className="text-left text-slate-500">
        <tr>
          <th className="py-1 pr-2 font-medium">Received</th>
          <th className="py-1 pr-2 font-medium">Status</th>
          <th className="py-1 pr-2 font-medium">Run</th>
          <th className="py-1 font-medium">Error</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.data.map((delivery) => {
          const outcome = deliveryOutcome(delivery);
          return (
            <tr
              key={delivery.id}
              className="border-t border-slate-100"
              data-testid="webhook-delivery"
              data-status={delivery.status ?? ""}
            >
              <td className="py-1 pr-2 whitespace-nowrap text-slate-600">{formatDateTime(delivery.receivedAt)}</td>
              <td className="py-1 pr-2 whitespace-nowrap">
                <span className={`rounded px-1.5 py-0.5 ${TONES[outcome.tone]}`}>
                  {delivery.status ?? "…"} {outcome.text}
                </span>
              </td>
              <td className="py-1 pr-2 whitespace-nowrap">
                {delivery.runId ? (
                  <Link
                    href={runHref(workflowId, delivery.runId)}
                    className="text-indigo-600 underline"
                    data-testid="delivery-run-link"
                  >
                    Open run
                  </Link>
                ) : (
                  <span className="text-slate-400">—</span>
                )}
              </td>
              <td className="max-w-80 truncate py-1 text-red-800" title={delivery.error ?? undefined}>
                {delivery.error ?? ""}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
