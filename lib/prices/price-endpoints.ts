import "server-only";
import { z } from "zod";
import { PRICE_MODEL_RULE, priceModelSchema, putPriceOverrideRequestSchema, type ModelList } from "@/contract";
import type { AuditRequest } from "@/lib/audit";
import { processReadCache, type WorkspaceReadCache } from "@/lib/cache";
import type { PriceOverrideRepository } from "@/lib/db";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { listPaging } from "@/lib/http/pagination";
import { readJsonRequest } from "@/lib/http/read-json";
import {
  checkPriceModel,
  PRICE_CATALOG,
  pricedModels,
  withProviderReadiness,
  type ProviderEnvInput,
} from "@/providers";

const overridePages = listPaging("priceOverrides", z.tuple([z.string()]).readonly());

/** The model id of `/api/prices/<provider>/<model...>`, refused with the rule when it cannot be priced. */
function modelOf(model: string): string {
  const shown = model.length > 80 ? `${model.slice(0, 80)}…` : model;
  if (!priceModelSchema.safeParse(model).success) {
    throw new RequestError("invalid_request", `"${shown}" is not a model to price: it ${PRICE_MODEL_RULE}.`, [
      { path: "model", message: PRICE_MODEL_RULE },
    ]);
  }
  const problem = checkPriceModel(model);
  if (problem) throw new RequestError("invalid_request", `${problem}.`, [{ path: "model", message: problem }]);
  return model;
}

/**
 * The workspace's own model prices (docs/CONTRACT.md section 12, "Prices") and the model list
 * priced with them. A run reads the overrides when it starts, so a change applies from the next run.
 */
export function priceEndpoints(
  overrides: () => Pick<PriceOverrideRepository, "page" | "put" | "delete" | "table">,
  /** The provider settings a run of the workspace would read (its secrets, then the server's variables): which providers have keys. */
  providerEnv: (workspaceId: string) => Promise<ProviderEnvInput>,
  audit: AuditRequest,
  /** Told of every change, so this process's next run reads the new prices (other processes hear the database's notification). */
  readCache: Pick<WorkspaceReadCache, "changing"> = processReadCache(),
) {
  return {
    list: endpoint("listPriceOverrides", async (request, _params, member) => {
      const page = await overrides().page(member.workspace.id, overridePages.read(request));
      return Response.json(overridePages.answer("overrides", page));
    }),
    /** Creates the override or replaces it whole. */
    put: endpoint("putPriceOverride", async (request, params, member) => {
      const model = modelOf(params.model);
      const prices = await readJsonRequest(request, putPriceOverrideRequestSchema, {
        subject: "The price",
        maxBytes: 16 * 1024,
      });
      const stored = await readCache.changing(member.workspace.id, () =>
        overrides().put(member.workspace.id, model, prices, member.userId),
      );
      await audit(request, member, {
        action: "price.set",
        object: { type: "price", id: model, name: model },
        summary: { after: prices },
      });
      return Response.json(stored);
    }),
    remove: endpoint("deletePriceOverride", async (request, params, member) => {
      await readCache.changing(member.workspace.id, () => overrides().delete(member.workspace.id, params.model));
      await audit(request, member, {
        action: "price.delete",
        object: { type: "price", id: params.model, name: params.model },
      });
      return new Response(null, { status: 204 });
    }),
    /**
     * The model picker's list, priced for the caller's workspace and marked where the provider has
     * no key for it, with the catalog's version and date; never keys.
     */
    models: endpoint("listModels", async (_request, _params, member) => {
      const [table, env] = await Promise.all([
        overrides().table(member.workspace.id),
        providerEnv(member.workspace.id),
      ]);
      return Response.json({
        models: withProviderReadiness(pricedModels(table), env),
        catalog: PRICE_CATALOG,
      } satisfies ModelList);
    }),
  };
}

export type PriceEndpoints = ReturnType<typeof priceEndpoints>;
