import "server-only";
import {
  ENDED_RUN_STATUSES,
  type AddRunToDatasetRequest,
  type CheckedDatasetCase,
  type DatasetSummary,
  type DatasetView,
  type IssueDetail,
} from "@/contract";
import type { Repositories } from "@/lib/db";
import { RequestError } from "@/lib/http/errors";
import {
  columnMismatch,
  describeMismatch,
  startInputColumns,
  typeProblem,
  type StartInputColumn,
} from "./dataset-columns";
import { importCases, type CaseFileFormat } from "./dataset-import";
import type { DatasetRepository, NewCase } from "./dataset-repository";

type CheckedRunToDataset = Required<Omit<AddRunToDatasetRequest, "expected">> & { expected?: unknown };

/**
 * Datasets as the API uses them: cases are checked against the start inputs of the dataset's
 * workflow (when it has one) before anything is stored, whichever way they come (JSON, CSV, JSON
 * lines, a past run), so a dataset never holds a case its workflow would refuse.
 */
export function createDatasetService(
  datasets: DatasetRepository,
  repositories: Pick<Repositories, "workflows" | "runs">,
) {
  const inputsOf = async (workspaceId: string, workflowId: string | null): Promise<StartInputColumn[] | null> =>
    workflowId === null ? null : startInputColumns(await repositories.workflows.get(workspaceId, workflowId));

  return {
    /** @throws NotFoundError for a workflow not in the workspace; 400 for cases that do not fit it */
    async create(
      workspaceId: string,
      request: { name: string; workflowId?: string | undefined; cases: CheckedDatasetCase[] },
    ): Promise<DatasetSummary> {
      const workflowId = request.workflowId ?? null;
      checkCases(request.cases, await inputsOf(workspaceId, workflowId));
      return datasets.create(workspaceId, { name: request.name, workflowId, cases: request.cases });
    },
    list: (workspaceId: string, workflowId?: string) => datasets.list(workspaceId, workflowId),
    get: (workspaceId: string, id: string, version?: number): Promise<DatasetView> =>
      datasets.get(workspaceId, id, version),
    rename: (workspaceId: string, id: string, name: string) => datasets.rename(workspaceId, id, name),
    remove: (workspaceId: string, id: string) => datasets.remove(workspaceId, id),

    async addCases(workspaceId: string, id: string, cases: CheckedDatasetCase[]): Promise<DatasetSummary> {
      checkCases(cases, await inputsOf(workspaceId, await datasets.workflowOf(workspaceId, id)));
      return datasets.addCases(workspaceId, id, cases);
    },

    /** A CSV or JSON-lines file's cases, all checked before any is stored. */
    async importCases(
      workspaceId: string,
      id: string,
      text: string,
      format: CaseFileFormat,
      mapping: Record<string, string> = {},
    ): Promise<DatasetSummary> {
      const inputs = await inputsOf(workspaceId, await datasets.workflowOf(workspaceId, id));
      return datasets.addCases(workspaceId, id, importCases(text, format, inputs, mapping));
    },

    async replaceCase(
      workspaceId: string,
      id: string,
      caseId: string,
      replacement: CheckedDatasetCase,
    ): Promise<DatasetSummary> {
      checkCases([replacement], await inputsOf(workspaceId, await datasets.workflowOf(workspaceId, id)));
      return datasets.replaceCase(workspaceId, id, caseId, replacement);
    },
    removeCase: (workspaceId: string, id: string, caseId: string) => datasets.removeCase(workspaceId, id, caseId),

    /**
     * "Add to dataset": a past run's input as a case, its output as the expected one (or the
     * `expected` sent instead). Fields of the input that are not start inputs of the dataset's
     * workflow are left out. @throws NotFoundError; 409 for a run that has not ended
     */
    async addRun(workspaceId: string, runId: string, request: CheckedRunToDataset): Promise<DatasetSummary> {
      const run = await repositories.runs.get(workspaceId, runId);
      if (!(ENDED_RUN_STATUSES as readonly string[]).includes(run.status))
        throw new RequestError("conflict", `Run "${runId}" is ${run.status}: add it to a dataset once it has ended.`);
      const workflowId = await datasets.workflowOf(workspaceId, request.datasetId);
      if (workflowId !== null && workflowId !== run.workflowId)
        throw new RequestError("invalid_request", "The run is of another workflow than the dataset's.", [
          { path: "datasetId", message: "belongs to another workflow" },
        ]);
      const inputs = await inputsOf(workspaceId, workflowId);
      const declared = inputs && new Set(inputs.map((input) => input.name));
      const input = Object.fromEntries(
        Object.entries(run.input ?? {}).filter(([name]) => !declared || declared.has(name)),
      );
      const expected = request.expected !== undefined ? request.expected : (run.output ?? undefined);
      const item: NewCase = {
        input,
        ...(expected === undefined ? {} : { expected }),
        note: request.note,
        tags: request.tags,
        sourceRunId: run.id,
      };
      checkCases([item], inputs);
      return datasets.addCases(workspaceId, request.datasetId, [item]);
    },
  };
}

export type DatasetService = ReturnType<typeof createDatasetService>;

/** Refuses cases whose inputs do not fit the start inputs, naming every case and field that does not. */
function checkCases(cases: readonly CheckedDatasetCase[], inputs: readonly StartInputColumn[] | null): void {
  if (!inputs) return;
  const problems: IssueDetail[] = [];
  let sentence: string | null = null;
  cases.forEach((item, index) => {
    const mismatch = columnMismatch(Object.keys(item.input), inputs);
    sentence ??= describeMismatch(mismatch, inputs);
    for (const name of mismatch.unknown)
      problems.push({ path: `cases[${index}].input.${name}`, message: "is not a start input" });
    for (const name of mismatch.missing)
      problems.push({ path: `cases[${index}].input.${name}`, message: "is a required start input and is missing" });
    for (const input of inputs) {
      if (!Object.hasOwn(item.input, input.name)) continue;
      const problem = typeProblem(item.input[input.name], input.type);
      if (problem) {
        problems.push({ path: `cases[${index}].input.${input.name}`, message: problem });
        sentence ??= `input "${input.name}" ${problem}.`;
      }
    }
  });
  if (problems.length > 0)
    throw new RequestError(
      "invalid_request",
      `The cases do not match the workflow's start inputs: ${sentence ?? "see details"} Nothing was stored.`,
      problems.slice(0, 50),
    );
}
