import { describe, expect, it } from "vitest";
import { fillTemplate, SAMPLE_KNOWLEDGE_BASE, WORKFLOW_TEMPLATES } from "@/examples";
import { unusedName } from "./template-document";

describe("a template's workflow", () => {
  it("gets a name no workflow has yet", () => {
    expect(unusedName("Knowledge Q&A", ["Support routing"])).toBe("Knowledge Q&A");
    expect(unusedName("Knowledge Q&A", ["Knowledge Q&A", "Knowledge Q&A 2"])).toBe("Knowledge Q&A 3");
  });

  it("searches the sample knowledge base by its id wherever the template names it", () => {
    const template = WORKFLOW_TEMPLATES.find((entry) => entry.id === "support-agent-tools")!;
    const filled = JSON.stringify(fillTemplate(template, { knowledgeBaseId: "kb-123", name: "Mine" }));
    expect(filled).not.toContain(SAMPLE_KNOWLEDGE_BASE);
    expect(filled).toContain('"knowledgeBaseId":"kb-123"');
    expect(JSON.parse(filled)).toMatchObject({ name: "Mine" });
    // The shared data is left as it was for the next use.
    expect(JSON.stringify(template.document)).toContain(SAMPLE_KNOWLEDGE_BASE);
  });
});
