import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch } from "@/net";
import { fixture, startImportRunKit, type ImportRunKit } from "./__fixtures__/import-run-kit";

/**
 * Seed 000's AnythingLLM flows imported through the endpoint and run on the real engine: the API
 * and web steps reach a local HTTP server (the flows' example.com hosts are pointed at it), the
 * LLM instruction is answered by the test LLM server, and the run answers what the flow's
 * variables held.
 */

let kit: ImportRunKit;
let site: Server;
let base: string;
const hits: string[] = [];
const forms: Array<{ contentType: string; body: string }> = [];

beforeAll(async () => {
  site = createServer((request, response) => {
    hits.push(request.url ?? "");
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/subscribe") {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        forms.push({ contentType: request.headers["content-type"] ?? "", body });
        response.writeHead(200, { "content-type": "application/json" }).end('{"subscribed":true}');
      });
    } else if (url.pathname === "/search") {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ topResult: { url: `${base}/ai-benefits` }, query: url.searchParams.get("q") }));
    } else if (url.pathname === "/data") {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ userId: url.searchParams.get("userId"), relatedUrl: `${base}/profile` }));
    } else if (url.pathname === "/user/user_default_123") {
      response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ id: "user_default_123", name: "John" }));
    } else {
      const title = url.pathname === "/profile" ? "Profile" : "AI benefits";
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(`<html><head><title>${title}</title></head><body><p>${title}: AI improves efficiency.</p></body></html>`);
    }
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  kit = await startImportRunKit({
    guardedFetch: createGuardedFetch({ allowHosts: `127.0.0.1:${(site.address() as AddressInfo).port}` }),
  });
});
afterAll(async () => {
  await kit?.close();
  await new Promise((resolve) => site?.close(resolve));
});

/** The flow file with its example.com API host pointed at the local site. */
function localFlow(name: string, host: string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(fixture(name)).replaceAll(host, base)) as Record<string, unknown>;
}

describe("AnythingLLM flows, imported and run", () => {
  it("Search and Summarize: the API's result feeds the web step, whose page feeds the LLM; the run answers the flow's variables", async () => {
    const { workflow, report } = await kit.importFile(
      localFlow("anythingllm/search-and-summarize.json", "https://api.search.example.com"),
    );
    expect(report.notMapped).toEqual([]);
    expect(workflow.issues).toEqual([]);
    expect(workflow.name).toBe("Search and Summarize");
    kit.kit.server.enqueue({
      kind: "text",
      text: "• AI improves efficiency\n• AI enables automation\n• AI reduces costs",
    });

    const run = await kit.run(workflow.id, { query: "artificial intelligence benefits" });

    expect(run.status).toBe("succeeded");
    const output = run.output as { searchResults: { query: string }; pageContent: string; summary: string };
    expect(output.searchResults.query).toBe("artificial intelligence benefits");
    expect(output.pageContent).toContain("AI benefits: AI improves efficiency.");
    expect(output.summary).toBe("• AI improves efficiency\n• AI enables automation\n• AI reduces costs");
    // ${pageContent} reached the model as the page's text.
    const prompt = kit.kit.server.requests.at(-1)!.parsed.userTexts.join("\n");
    expect(prompt).toContain("Summarize the following content in 3 bullet points: ");
    expect(prompt).toContain("AI improves efficiency.");
    expect(hits).toContain("/search?q=artificial%20intelligence%20benefits");
  });

  it("an API step with a form body is sent URL-encoded, its fields' variables filled in", async () => {
    const flow = {
      name: "Subscribe",
      description: "",
      active: true,
      steps: [
        { type: "start", config: { variables: [{ name: "email", value: "", description: "Who subscribes" }] } },
        {
          type: "apiCall",
          config: {
            url: `${base}/subscribe`,
            method: "POST",
            bodyType: "form",
            formData: [
              { key: "email", value: "${email}" },
              { key: "list", value: "news & updates" },
            ],
            responseVariable: "answer",
          },
        },
      ],
    };
    const { workflow, report } = await kit.importFile(flow);
    expect(report.notMapped).toEqual([]);
    expect(workflow.blocks.find((block) => block.type === "api")!.config).toMatchObject({ bodyType: "form" });

    const run = await kit.run(workflow.id, { email: "ada@example.com" });

    expect(run.status).toBe("succeeded");
    expect(forms.at(-1)!.contentType).toContain("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(forms.at(-1)!.body))).toEqual({
      email: "ada@example.com",
      list: "news & updates",
    });
  });

  it("Data Processing Workflow: start variables are inputs with their defaults, and a caller's value overrides one", async () => {
    const { workflow } = await kit.importFile(fixture("anythingllm/data-processing.json"));
    kit.kit.server.enqueue({ kind: "text", text: "The user is u-42." });

    const run = await kit.run(workflow.id, { apiUrl: `${base}/data`, userId: "u-42" });

    expect(run.status).toBe("succeeded");
    const output = run.output as { apiResponse: { userId: string }; analysis: string; scrapedContent: string };
    expect(output.apiResponse.userId).toBe("u-42");
    expect(output.analysis).toBe("The user is u-42.");
    expect(output.scrapedContent).toContain("Profile: AI improves efficiency.");
    const start = workflow.blocks.find((block) => block.type === "start")!;
    expect(start.config.inputs).toEqual([
      { name: "apiUrl", type: "string", description: "The API endpoint URL", default: "https://api.example.com/data" },
      { name: "userId", type: "string", description: "User ID to fetch data for" },
    ]);
  });

  it("a directOutput step answers the run with its result and nothing after it runs; the steps left out are listed", async () => {
    const { workflow, report } = await kit.importFile(
      localFlow("anythingllm/direct-output.json", "https://api.example.com"),
    );
    expect(report.notMapped.map((item) => item.what)).toEqual(["steps[2] (llmInstruction)", "steps[3] (code)"]);
    const requestsBefore = kit.kit.server.requests.length;

    const run = await kit.run(workflow.id, {});

    expect(run.status).toBe("succeeded");
    expect(run.output).toEqual({ id: "user_default_123", name: "John" });
    expect(kit.kit.server.requests.length).toBe(requestsBefore);
  });
});
