import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ToolInfo } from "@/contract";
import { MemoriesField } from "../memories-field";
import { ResponseFormatField } from "../response-format-field";
import { ToolCard, type ToolCardProps } from "./tool-card";
import { functionEntry } from "./tool-entries";

/** What a person sees on a tool card and the agent's other editors, rendered as the inspector renders them. */

const httpInfo: ToolInfo = {
  type: "http_request",
  label: "HTTP request",
  description: "Calls an HTTP API",
  params: [
    { name: "url", label: "URL", kind: "text", description: "Every call goes here" },
    { name: "method", label: "Method", kind: "select", options: ["GET", "POST"] },
  ],
};

function card(props: Partial<ToolCardProps> & Pick<ToolCardProps, "entry">): string {
  const noop = () => {};
  return renderToStaticMarkup(
    <ToolCard
      index={0}
      info={undefined}
      catalogLoaded
      workflowName={undefined}
      onChange={noop}
      onRemove={noop}
      onRouteOnOutcome={noop}
      onDirectOutput={noop}
      referenceItems={() => []}
      envNames={() => []}
      {...props}
    />,
  );
}

const field = (key: string, label: string) => ({ key, label, kind: "json" as const });
const editorProps = {
  blockId: "agent",
  invalid: false,
  onChange: () => {},
  referenceItems: () => [],
  envNames: () => [],
};

describe("a tool card", () => {
  it("shows a built-in tool's settings with the pre-filled values, its approval and routing switches", () => {
    const html = card({
      entry: {
        type: "http_request",
        name: "order_status",
        params: { url: "https://api.example.com/orders", method: "GET" },
      },
      info: httpInfo,
    });
    expect(html).toContain("HTTP request");
    expect(html).toContain('value="order_status"');
    expect(html).toContain('value="https://api.example.com/orders"');
    expect(html).toMatch(/<option value="GET" selected="">GET<\/option>/);
    expect(html).toContain("Every call goes here");
    expect(html).toContain("Require approval");
    expect(html).toContain('Route on <span class="font-medium">order_status</span>');
  });

  it("shows a custom function's description, parameter rows and code", () => {
    const html = card({ entry: functionEntry([]) });
    expect(html).toContain("Custom function");
    expect(html).toContain('value="my_function"');
    expect(html).toContain('value="text"');
    expect(html).toContain("The text to measure");
    expect(html).toContain("services.inputs");
    expect(html).toMatch(/<option value="javascript" selected="">JavaScript<\/option>/);
    expect(html).toContain("Code (JavaScript, sandboxed");
  });

  it("shows a custom function in Python as Python", () => {
    const entry = functionEntry([]);
    const params = { ...(entry.params as Record<string, unknown>), language: "python", code: "return 1" };
    const html = card({ entry: { ...entry, params } });
    expect(html).toMatch(/<option value="python" selected="">Python<\/option>/);
    expect(html).toContain("Code (Python, sandboxed");
  });

  it("says a tool type the server does not have is unknown, and names params it has no input for", () => {
    const html = card({ entry: { type: "web_serch", params: { depth: 2 } } });
    expect(html).toContain("unknown tool type &quot;web_serch&quot;: saving is refused");
    expect(html).toContain('Also set: <span class="font-mono">depth</span>');
    expect(card({ entry: { type: "web_serch" }, catalogLoaded: false })).not.toContain("unknown tool type");
  });
});

describe("the memories and response format editors", () => {
  it("lists memories as messages with their roles, or shows the one reference", () => {
    const html = renderToStaticMarkup(
      <MemoriesField
        {...editorProps}
        field={field("memories", "Memories")}
        value={[
          { role: "user", content: "Where is my parcel?" },
          { role: "assistant", content: "On its way." },
        ]}
      />,
    );
    expect(html.match(/data-testid="memory-row"/g)).toHaveLength(2);
    expect(html).toMatch(/<option value="assistant" selected="">assistant<\/option>/);
    expect(html).toContain("On its way.");
    const reference = renderToStaticMarkup(
      <MemoriesField {...editorProps} field={field("memories", "Memories")} value="<start.history>" />,
    );
    expect(reference).toContain('value="&lt;start.history&gt;"');
    expect(reference).not.toContain("memory-row");
  });

  it("shows a response format as property rows with an example answer, and one rows cannot hold as JSON", () => {
    const schema = {
      type: "object",
      properties: { category: { type: "string", description: "billing" }, urgent: { type: "boolean" } },
      required: ["category"],
    };
    const html = renderToStaticMarkup(
      <ResponseFormatField {...editorProps} field={field("responseFormat", "Response format")} value={schema} />,
    );
    expect(html.match(/data-testid="field-responseFormat-properties-row"/g)).toHaveLength(2);
    expect(html).toContain("&quot;category&quot;: &quot;billing&quot;");
    const withEnum = { type: "object", properties: { mood: { type: "string", enum: ["calm", "angry"] } } };
    const json = renderToStaticMarkup(
      <ResponseFormatField {...editorProps} field={field("responseFormat", "Response format")} value={withEnum} />,
    );
    // The JSON editor itself loads in the browser (CodeMirror); here the rows are refused with the reason and no row is drawn.
    expect(json).toMatch(
      /disabled="" title="This schema uses more than rows can show[^"]*" data-testid="field-responseFormat-rows-mode"/,
    );
    expect(json).not.toContain('data-testid="field-responseFormat-properties-row"');
    expect(json).toContain("&quot;mood&quot;: &quot;calm&quot;");
  });
});
