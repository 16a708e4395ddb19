import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withConfigParsing } from "@/blocks/__fixtures__/with-config-parsing";
import { createAgentHandler } from "@/blocks/agent/handler";
import { createInMemoryHandlerContext } from "@/providers/testing/in-memory-handler-context";
import { createTestModelRegistry } from "@/providers/testing/test-model-registry";
import { startTestLlmServer, type TestLlmServer } from "@/providers/testing/test-llm-server";
import { createToolRegistry } from "../registry";
import { createFileToolProviders } from "./file-tools";
import { filesSettingsFrom, workspaceFiles } from "./files-settings";
import { makeFilesFolder, WORKSPACE_ID, type FilesFolder } from "./__fixtures__/files-folder";

let server: TestLlmServer;
let folder: FilesFolder;

beforeAll(async () => {
  server = await startTestLlmServer();
  folder = await makeFilesFolder();
});

afterAll(async () => {
  await folder?.close();
  await server?.close();
});

describe("file tools in an agent run", () => {
  it("the agent reads a file of its workspace; a path out of the folder comes back to the model as the tool's error", async () => {
    server.enqueue(
      {
        kind: "tool-calls",
        calls: [
          { id: "call_1", name: "file_read", arguments: { path: "../other-ws/secret.txt" } },
          { id: "call_2", name: "file_read", arguments: { path: "readme.md" } },
        ],
        usage: { prompt: 100, completion: 20 },
      },
      { kind: "text", text: "Refunds are accepted within 30 days.", usage: { prompt: 200, completion: 10 } },
    );
    const settings = filesSettingsFrom((name) => ({ TRELLIS_FILES_ROOT: folder.root })[name]);
    const files = createFileToolProviders(workspaceFiles(settings, WORKSPACE_ID));
    const tools = createToolRegistry([files.read, files.write]);
    const agent = withConfigParsing("agent", createAgentHandler({ models: createTestModelRegistry(server), tools }));
    const { output } = await agent({
      config: { model: "openai/gpt-4o", userPrompt: "What does the handbook say about refunds?", tools: ["file_read"] },
      inputs: {},
      context: createInMemoryHandlerContext(),
    });

    expect(output.content).toBe("Refunds are accepted within 30 days.");
    const calls = (
      output.toolCalls as {
        list: Array<{ name: string; error?: { code: string; message: string }; result?: { content: string } }>;
      }
    ).list;
    expect(calls[0]).toMatchObject({
      name: "file_read",
      error: {
        code: "file_refused",
        message: `"../other-ws/secret.txt" is outside the workspace files folder (TRELLIS_FILES_ROOT/${WORKSPACE_ID}): ".." may not climb out of it`,
      },
    });
    expect(calls[1]!.result!.content).toContain("Refunds within 30 days.");
    // The model saw the refusal and the file, and never the other workspace's file or the host's path.
    const secondPrompt = JSON.stringify(server.requests[1]?.body);
    expect(secondPrompt).toContain("may not climb out of it");
    expect(secondPrompt).toContain("Refunds within 30 days.");
    expect(secondPrompt).not.toContain("another workspace's secret");
    expect(secondPrompt).not.toContain(folder.root);
    expect(server.requests[0]?.parsed.toolNames).toEqual(["file_read"]);
  });
});
