import "server-only";
import {
  addDatasetCasesRequestSchema,
  addRunToDatasetRequestSchema,
  createDatasetRequestSchema,
  DATASET_IMPORT_MAX_BYTES,
  datasetCaseInputSchema,
  updateDatasetRequestSchema,
} from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { readBodyCapped } from "@/lib/http/read-capped";
import { readJsonRequest } from "@/lib/http/read-json";
import type { CaseFileFormat } from "./dataset-import";
import type { DatasetService } from "./dataset-service";

/** A JSON body of cases: up to the import's size too, since it may carry as many. */
const MAX_CASES_BYTES = DATASET_IMPORT_MAX_BYTES;

/** The file format a cases body is in, by its media type; null for JSON. */
function importFormat(request: Request): CaseFileFormat | null {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  return type === "text/csv" ? "csv" : type === "application/x-ndjson" ? "jsonl" : null;
}

async function readText(request: Request): Promise<string> {
  const bytes = await readBodyCapped(
    request,
    DATASET_IMPORT_MAX_BYTES,
    (size) =>
      new RequestError("too_large", `The file is over the ${DATASET_IMPORT_MAX_BYTES / 1024 / 1024} MB limit.`, [
        { path: "", message: `at least ${size} bytes received` },
      ]),
  );
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new RequestError("invalid_request", "The file is not UTF-8 text.");
  }
}

/** `?map=q:question,answer:expected,id:` (or repeated): the file's columns the user mapped to start inputs, or left out. */
function mappingOf(request: Request): Record<string, string> {
  const mapping: Record<string, string> = {};
  for (const entry of new URL(request.url).searchParams.getAll("map").flatMap((value) => value.split(","))) {
    if (!entry.trim()) continue;
    const [from, to, ...rest] = entry.split(":").map((part) => part.trim());
    // `column:` (nothing after the colon) leaves the column out.
    if (!from || to === undefined || rest.length > 0)
      throw new RequestError("invalid_request", `?map takes "column:input" pairs; "${entry}" is not one.`, [
        { path: "map", message: "must be column:input pairs, comma-separated" },
      ]);
    mapping[from] = to;
  }
  return mapping;
}

function versionOf(request: Request): number | undefined {
  const value = new URL(request.url).searchParams.get("version");
  if (value === null || value === "") return undefined;
  const version = Number(value);
  if (!Number.isInteger(version) || version < 1)
    throw new RequestError("invalid_request", `?version must be a whole number from 1; got "${value}".`, [
      { path: "version", message: "must be a whole number from 1" },
    ]);
  return version;
}

/** The dataset endpoints of docs/CONTRACT.md section 13. */
export function datasetEndpoints(service: () => DatasetService) {
  return {
    list: endpoint("listDatasets", async (request, _params, { workspace }) => {
      const workflowId = new URL(request.url).searchParams.get("workflowId") ?? undefined;
      return Response.json({ datasets: await service().list(workspace.id, workflowId || undefined) });
    }),
    create: endpoint("createDataset", async (request, _params, { workspace }) => {
      const body = await readJsonRequest(request, createDatasetRequestSchema, {
        subject: "The dataset",
        maxBytes: MAX_CASES_BYTES,
      });
      return Response.json(await service().create(workspace.id, body), { status: 201 });
    }),
    get: endpoint("getDataset", async (request, { id }, { workspace }) =>
      Response.json(await service().get(workspace.id, id, versionOf(request))),
    ),
    update: endpoint("updateDataset", async (request, { id }, { workspace }) => {
      const { name } = await readJsonRequest(request, updateDatasetRequestSchema, {
        subject: "The change",
        maxBytes: 4096,
      });
      return Response.json(await service().rename(workspace.id, id, name));
    }),
    remove: endpoint("deleteDataset", async (_request, { id }, { workspace }) => {
      await service().remove(workspace.id, id);
      return new Response(null, { status: 204 });
    }),
    addCases: endpoint("addDatasetCases", async (request, { id }, { workspace }) => {
      const format = importFormat(request);
      if (format)
        return Response.json(
          await service().importCases(workspace.id, id, await readText(request), format, mappingOf(request)),
        );
      const { cases } = await readJsonRequest(request, addDatasetCasesRequestSchema, {
        subject: "The cases",
        maxBytes: MAX_CASES_BYTES,
      });
      return Response.json(await service().addCases(workspace.id, id, cases));
    }),
    replaceCase: endpoint("replaceDatasetCase", async (request, { id, caseId }, { workspace }) => {
      const replacement = await readJsonRequest(request, datasetCaseInputSchema, {
        subject: "The case",
        maxBytes: 1024 * 1024,
      });
      return Response.json(await service().replaceCase(workspace.id, id, caseId, replacement));
    }),
    removeCase: endpoint("deleteDatasetCase", async (_request, { id, caseId }, { workspace }) =>
      Response.json(await service().removeCase(workspace.id, id, caseId)),
    ),
    addRun: endpoint("addRunToDataset", async (request, { id }, { workspace }) => {
      const body = await readJsonRequest(request, addRunToDatasetRequestSchema, {
        subject: "The request",
        maxBytes: 1024 * 1024,
      });
      return Response.json(await service().addRun(workspace.id, id, body));
    }),
  };
}

export type DatasetEndpoints = ReturnType<typeof datasetEndpoints>;
