import "server-only";
import { getPrisma, type PrismaClient } from "@/lib/db";
import { getRuntime } from "@/lib/runtime/runtime";
import type { DeployGate } from "./deploy-gate";
import { evaluationEndpoints } from "./evaluation-endpoints";
import { evaluationServices } from "./evaluation-services";

/** The suite and evaluation endpoints over the app's runtime (one per process). */
export const appEvaluationEndpoints = evaluationEndpoints(() => evaluationServices(getRuntime(), getPrisma()));

/** The deploy gate over the app's runtime. */
export function appDeployGate(prisma: PrismaClient): DeployGate {
  return evaluationServices(getRuntime(), prisma).gate;
}
