import "server-only";
import type { ModelPrices, PriceOverride, PutPriceOverrideRequest } from "@/contract";
import type { PrismaClient, PriceOverride as PriceOverrideRow } from "@/lib/generated/prisma/client";
import { NotFoundError } from "./errors";
import { keysetResult, type KeysetPage, type KeysetResult } from "./keyset";

/** Where a page of overrides ends: the last model shown (unique in its workspace). */
export type PriceOverridePosition = readonly [model: string];

/**
 * A workspace's own model prices (every method takes the workspace first). Checking the model id
 * and the figures is the endpoint's; this stores what it is given.
 */
export class PriceOverrideRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Creates the override of `model` or replaces it whole (a field left out is cleared, so it defaults again). */
  async put(
    workspaceId: string,
    model: string,
    prices: PutPriceOverrideRequest,
    updatedById: string | null,
  ): Promise<PriceOverride> {
    const fields = {
      input: prices.input,
      output: prices.output,
      cachedInput: prices.cachedInput ?? null,
      cacheWrite: prices.cacheWrite ?? null,
      reasoning: prices.reasoning ?? null,
      note: prices.note?.trim() || null,
      updatedById,
    };
    const row = await this.prisma.priceOverride.upsert({
      where: { workspaceId_model: { workspaceId, model } },
      create: { workspaceId, model, ...fields },
      update: fields,
    });
    return toOverride(row);
  }

  /** A page of the overrides, by model id. */
  async page(
    workspaceId: string,
    page: KeysetPage<PriceOverridePosition>,
  ): Promise<KeysetResult<PriceOverride, PriceOverridePosition>> {
    const rows = await this.prisma.priceOverride.findMany({
      where: { workspaceId, ...(page.after ? { model: { gt: page.after[0] } } : {}) },
      orderBy: { model: "asc" },
      take: page.limit + 1,
    });
    return keysetResult(rows, page.limit, toOverride, (row): PriceOverridePosition => [row.model]);
  }

  /** Every override's prices by model: what a run of the workspace is charged at, read once when it starts. */
  async table(workspaceId: string): Promise<Record<string, ModelPrices>> {
    const rows = await this.prisma.priceOverride.findMany({ where: { workspaceId } });
    return Object.fromEntries(rows.map((row) => [row.model, pricesOf(row)]));
  }

  /** @throws NotFoundError when the workspace has no override of `model`. */
  async delete(workspaceId: string, model: string): Promise<void> {
    const { count } = await this.prisma.priceOverride.deleteMany({ where: { workspaceId, model } });
    if (count === 0) throw new NotFoundError("Price override", model);
  }
}

function pricesOf(row: PriceOverrideRow): ModelPrices {
  const prices: ModelPrices = { input: row.input, output: row.output };
  if (row.cachedInput !== null) prices.cachedInput = row.cachedInput;
  if (row.cacheWrite !== null) prices.cacheWrite = row.cacheWrite;
  if (row.reasoning !== null) prices.reasoning = row.reasoning;
  return prices;
}

function toOverride(row: PriceOverrideRow): PriceOverride {
  return {
    model: row.model,
    prices: pricesOf(row),
    note: row.note,
    updatedBy: row.updatedById,
    updatedAt: row.updatedAt.toISOString(),
  };
}
