import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { API_OPERATIONS, buildOpenApiDocument } from "@/contract/openapi";
import { answersOf, operationsByTag, parametersOf } from "./document-view";
import { JsonView } from "./json-view";
import { OperationCard } from "./operation-card";

/** The docs page's parts over the real document: every operation shown, grouped by tag, its access, body, answers and errors readable. */

const document = buildOpenApiDocument(API_OPERATIONS, { version: "0.0.0-test" });
const tags = operationsByTag(document);
const views = tags.flatMap((tag) => tag.operations);
const viewOf = (operationId: string) => views.find((view) => view.operation.operationId === operationId)!;
const render = (operationId: string) =>
  renderToStaticMarkup(<OperationCard document={document} view={viewOf(operationId)} />);

describe("the API docs page", () => {
  it("groups every operation under its tag, in the document's order", () => {
    expect(views).toHaveLength(API_OPERATIONS.length);
    expect(tags.map((tag) => tag.name)).toEqual(document.tags.map((tag) => tag.name));
    expect(tags.find((tag) => tag.name === "Runs")?.operations.map((view) => `${view.method} ${view.path}`)).toContain(
      "POST /api/runs/{id}/cancel",
    );
  });

  it("shows an operation's method, path, summary, access and role, parameters, body schema and example, answers and errors", () => {
    const html = render("updateWorkflow");
    expect(html).toContain(">PUT<");
    expect(html).toContain("/api/workflows/{id}");
    expect(html).toContain("Replace a workflow&#x27;s document");
    expect(html).toContain("Member of the workspace, role editor or above.");
    expect(html).toContain('href="#schema-WorkflowUpdate"');
    expect(html).toContain('href="#schema-SavedWorkflow"');
    expect(html).toContain("409 Conflict");
    expect(html).toContain("421 HostNotAllowed");
    // The request's JSON Schema, readable, its references linked.
    expect(html).toContain(
      '<a class="text-indigo-600 underline" href="#schema-WorkflowBlock">&quot;#/components/schemas/WorkflowBlock&quot;</a>',
    );
    expect(html).toContain("Example");
    expect(parametersOf(document, viewOf("updateWorkflow").operation).map((parameter) => parameter.name)).toEqual([
      "id",
      "x-trellis-workspace",
    ]);
  });

  it("marks public operations and says what a stream answers", () => {
    expect(render("health")).toContain("Public: no credentials.");
    expect(render("previewInvitation")).toContain(">public<");
    const followed = render("followRunEvents");
    expect(followed).toContain("text/event-stream");
    expect(followed).toContain("Last-Event-ID");
    expect(answersOf(viewOf("startRun").operation).successes.map(([status]) => status)).toEqual(["200", "202"]);
  });

  it("shows JSON as JSON.stringify indents it, escaping what it holds", () => {
    const value = {
      description: "<script>alert(1)</script>",
      list: [1, true, null],
      empty: {},
      none: [],
      nested: { $ref: "#/components/schemas/Run" },
    };
    const html = renderToStaticMarkup(<JsonView value={value} label="x" />);
    expect(html).not.toContain("<script>");
    const text = html
      .replace(/<[^>]+>/g, "")
      .replaceAll("&quot;", '"')
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&#x27;", "'")
      .replaceAll("&amp;", "&");
    expect(text).toBe(JSON.stringify(value, null, 2));
    expect(html).toContain('href="#schema-Run"');
  });
});
