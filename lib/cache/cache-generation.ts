import "server-only";
import type { PrismaClient } from "@/lib/db";

/** The workspace's cache generation now: 0 until the first change of its cached data. */
export async function readCacheGeneration(prisma: PrismaClient, workspaceId: string): Promise<number> {
  const [row] = await prisma.$queryRaw<
    Array<{ generation: bigint }>
  >`SELECT generation FROM cache_generations WHERE workspace_id = ${workspaceId}`;
  return row ? Number(row.generation) : 0;
}
