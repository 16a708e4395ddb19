import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";

/** Processes that execute runs, known by their heartbeats (the lease). */
export class WorkerRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async register(id: string, host: string, pid: number): Promise<void> {
    await this.prisma.worker.upsert({ where: { id }, create: { id, host, pid }, update: { heartbeatAt: new Date() } });
  }

  /** Renews the lease; false when the row is gone (another process judged this one dead). */
  async heartbeat(id: string): Promise<boolean> {
    const { count } = await this.prisma.worker.updateMany({ where: { id }, data: { heartbeatAt: new Date() } });
    return count === 1;
  }

  /**
   * Removes the processes whose lease ran out (heartbeat older than `leaseMs`) and answers their
   * ids. Removal is the claim: when two live processes look at once, each dead one goes to one.
   */
  async claimDead(leaseMs: number, except: string): Promise<string[]> {
    const cutoff = new Date(Date.now() - leaseMs);
    const dead = await this.prisma.worker.findMany({
      where: { heartbeatAt: { lt: cutoff }, id: { not: except } },
      select: { id: true },
    });
    const claimed: string[] = [];
    for (const { id } of dead) {
      const { count } = await this.prisma.worker.deleteMany({ where: { id, heartbeatAt: { lt: cutoff } } });
      if (count === 1) claimed.push(id);
    }
    return claimed;
  }

  /** Every other registered process (with the embedded database only one process runs, so all of them are dead). */
  async claimAllBut(except: string): Promise<string[]> {
    const others = await this.prisma.worker.findMany({ where: { id: { not: except } }, select: { id: true } });
    const claimed: string[] = [];
    for (const { id } of others)
      if ((await this.prisma.worker.deleteMany({ where: { id } })).count === 1) claimed.push(id);
    return claimed;
  }

  async isAlive(id: string, leaseMs: number): Promise<boolean> {
    return (
      (await this.prisma.worker.count({ where: { id, heartbeatAt: { gte: new Date(Date.now() - leaseMs) } } })) === 1
    );
  }

  async remove(id: string): Promise<void> {
    await this.prisma.worker.deleteMany({ where: { id } });
  }
}
