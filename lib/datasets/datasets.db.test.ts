import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatasetSummary, DatasetView } from "@/contract";
import {
  answerWorkflow,
  createWorkflow,
  json,
  read,
  startEvaluationKit,
  text,
  type EvaluationKit,
} from "@/lib/evaluations/__fixtures__/evaluation-kit";
import { testMember } from "@/lib/http/test-members";

let kit: EvaluationKit;
let ws: string;
let workflowId: string;
const editor = () => testMember(ws, "editor");

beforeAll(async () => {
  kit = await startEvaluationKit();
  ws = await kit.database.createWorkspace();
  const document = answerWorkflow();
  // A second input, a number with a default, to check typed columns.
  (document.blocks![0]!.config as { inputs: unknown[] }).inputs.push({ name: "level", type: "number", default: 1 });
  workflowId = (await createWorkflow(kit, ws, document)).id;
});
afterAll(() => kit.close());

async function createDataset(body: unknown) {
  return read<DatasetSummary & { error: { message: string; details: { path: string; message: string }[] } }>(
    await kit.datasets.create(json("POST", "/api/datasets", body), {}, editor()),
  );
}

async function getDataset(id: string, version?: number): Promise<DatasetView> {
  const query = version === undefined ? "" : `?version=${version}`;
  const { status, body } = await read<DatasetView>(
    await kit.datasets.get(new Request(`http://localhost/api/datasets/${id}${query}`), { id }, editor()),
  );
  expect(status).toBe(200);
  return body;
}

const importFile = async (id: string, contentType: string, body: string) =>
  read(await kit.datasets.addCases(text(`/api/datasets/${id}/cases`, contentType, body), { id }, editor()));

describe("datasets", () => {
  it("keeps cases with versions: an edit makes a new version and the old one still reads as it was", async () => {
    const created = await createDataset({
      name: "Questions",
      workflowId,
      cases: [{ input: { question: "Where is my order?" }, expected: "order", tags: ["shipping"] }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Questions", version: 1, caseCount: 1, workflowId });
    const id = created.body.id;
    const [first] = (await getDataset(id)).cases;
    const edited = await read<DatasetSummary>(
      await kit.datasets.replaceCase(
        json("PUT", `/api/datasets/${id}/cases/${first!.id}`, {
          input: { question: "Where is my parcel?" },
          expected: "parcel",
        }),
        { id, caseId: first!.id },
        editor(),
      ),
    );
    expect(edited.body).toMatchObject({ version: 2, caseCount: 1 });
    expect((await getDataset(id)).cases[0]).toMatchObject({
      id: first!.id,
      input: { question: "Where is my parcel?" },
      expected: "parcel",
    });
    expect((await getDataset(id, 1)).cases[0]).toMatchObject({
      id: first!.id,
      input: { question: "Where is my order?" },
      expected: "order",
    });
  });

  it("refuses cases whose inputs are not the workflow's start inputs, naming them, and stores nothing", async () => {
    const refused = await createDataset({ name: "Wrong", workflowId, cases: [{ input: { topic: "x" } }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('"topic"');
    expect(refused.body.error.message).toContain('"question"');
    expect(refused.body.error.details).toContainEqual({
      path: "cases[0].input.topic",
      message: "is not a start input",
    });
    const lists = await read<{ datasets: DatasetSummary[] }>(
      await kit.datasets.list(new Request("http://localhost/api/datasets"), {}, editor()),
    );
    expect(lists.body.datasets.map((dataset) => dataset.name)).not.toContain("Wrong");
  });

  it("imports a CSV with typed columns, and a bad cell is refused naming its line and column with nothing stored", async () => {
    const { body: dataset } = await createDataset({ name: "CSV", workflowId });
    const good = await importFile(
      dataset.id,
      "text/csv",
      'question,level,expected,tags\n"Hi, there",2,Echo,a;b\nBye,,Bye,\n',
    );
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ version: 2, caseCount: 2 });
    const cases = (await getDataset(dataset.id)).cases;
    expect(cases[0]).toMatchObject({ input: { question: "Hi, there", level: 2 }, expected: "Echo", tags: ["a", "b"] });
    // An empty cell of an input with a default leaves it to its default.
    expect(cases[1]!.input).toEqual({ question: "Bye" });

    const bad = await importFile(dataset.id, "text/csv", "question,level\nOne,1\nTwo,2\nThree,three\n");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("line 4, column level");
    expect(bad.body.error.details).toEqual([{ path: "line 4, column level", message: '"three" is not a number' }]);
    expect(await getDataset(dataset.id)).toMatchObject({ version: 2, caseCount: 2 });

    const columns = await importFile(dataset.id, "text/csv", "question,topic\nOne,x\n");
    expect(columns.status).toBe(400);
    expect(columns.body.error.message).toMatch(/column "topic" is not a start input/);
    const missing = await importFile(dataset.id, "text/csv", "level,expected\n1,x\n");
    expect(missing.body.error.message).toMatch(/required input "question" is missing/);
    // The user maps the file's own column names to the start inputs.
    const mapped = await read(
      await kit.datasets.addCases(
        text(
          `/api/datasets/${dataset.id}/cases?map=q:question,answer:expected,id:`,
          "text/csv",
          "id,q,answer\n7,Mapped,Yes\n",
        ),
        { id: dataset.id },
        editor(),
      ),
    );
    expect(mapped.body).toMatchObject({ version: 3, caseCount: 3 });
    expect((await getDataset(dataset.id)).cases[2]).toMatchObject({ input: { question: "Mapped" }, expected: "Yes" });
  });

  it("imports JSON lines, refusing a bad line by its number", async () => {
    const { body: dataset } = await createDataset({ name: "JSONL", workflowId });
    const good = await importFile(
      dataset.id,
      "application/x-ndjson",
      '{"question":"A","expected":{"ok":true}}\n\n{"question":"B","level":3}\n',
    );
    expect(good.body).toMatchObject({ caseCount: 2 });
    expect((await getDataset(dataset.id)).cases[0]!.expected).toEqual({ ok: true });
    const bad = await importFile(dataset.id, "application/x-ndjson", '{"question":"C"}\n{"question":5}\n{oops\n');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("line 3");
    expect((await getDataset(dataset.id)).caseCount).toBe(2);
  });

  it("refuses more than 10,000 cases with 413 naming the limit", async () => {
    const { body: dataset } = await createDataset({ name: "Big", workflowId });
    const rows = Array.from({ length: 10_001 }, (_, index) => `q${index}`).join("\n");
    const refused = await importFile(dataset.id, "text/csv", `question\n${rows}\n`);
    expect(refused.status).toBe(413);
    expect(refused.body.error.message).toContain("at most 10,000 cases");
    expect((await getDataset(dataset.id)).caseCount).toBe(0);
  });

  it("adds a past run as a case: its inputs, and its output as the expected one", async () => {
    const { body: dataset } = await createDataset({ name: "From traffic", workflowId });
    const live = await kit.runtime.runs.start(ws, workflowId, { question: "What is Trellis?" });
    const run = await live.done;
    expect(run.status).toBe("succeeded");
    const added = await read<DatasetSummary>(
      await kit.datasets.addRun(
        json("POST", `/api/runs/${run.id}/dataset`, { datasetId: dataset.id }),
        { id: run.id },
        editor(),
      ),
    );
    expect(added.status).toBe(200);
    const [item] = (await getDataset(dataset.id)).cases;
    expect(item).toMatchObject({
      input: { question: "What is Trellis?" },
      expected: "Echo: What is Trellis?",
      sourceRunId: run.id,
    });
    // The expected output is editable when it is added.
    await kit.datasets.addRun(
      json("POST", `/api/runs/${run.id}/dataset`, { datasetId: dataset.id, expected: "Trellis" }),
      { id: run.id },
      editor(),
    );
    expect((await getDataset(dataset.id)).cases[1]!.expected).toBe("Trellis");
  });

  it("keeps datasets to their workspace", async () => {
    const { body: dataset } = await createDataset({ name: "Mine", workflowId });
    const other = await kit.database.createWorkspace();
    const response = await kit.datasets.get(
      new Request(`http://localhost/api/datasets/${dataset.id}`),
      { id: dataset.id },
      testMember(other, "editor"),
    );
    expect(response.status).toBe(404);
  });
});
