import { listModels } from "@/providers/catalog";

export const dynamic = "force-dynamic";

/** The model picker's list: ids, labels and prices per million tokens; never keys. */
export function GET() {
  return Response.json({ models: listModels() });
}
