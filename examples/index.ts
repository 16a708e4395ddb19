import type { WorkflowDocumentInput } from "@/contract";
import askApproval from "./ask-approval.json";
import knowledgeQa from "./knowledge-qa.json";
import loopList from "./loop-list.json";
import sampleKnowledge from "./sample-knowledge.json";
import supportAgentTools from "./support-agent-tools.json";
import supportRouting from "./support-routing.json";

/**
 * The template gallery: examples/ as data the browser imports. Each template is one of the JSON
 * workflows beside this file (each run on the engine by its test), with every model set to the
 * offline model so it runs without a key.
 */
export interface WorkflowTemplate {
  id: string;
  name: string;
  /** One line for the gallery card. */
  summary: string;
  document: WorkflowDocumentInput;
}

/** Stands for the sample knowledge base's id in a template; filled in when the template is used (fillTemplate). */
export const SAMPLE_KNOWLEDGE_BASE = "@sample-knowledge-base";

/** The sample knowledge base a template that searches one gets: made once per workspace, found again by name. */
export const SAMPLE_KNOWLEDGE: {
  name: string;
  description: string;
  documents: ReadonlyArray<{ name: string; text: string }>;
} = sampleKnowledge;

export const WORKFLOW_TEMPLATES: readonly WorkflowTemplate[] = [
  {
    id: "support-routing",
    name: "Support routing",
    summary: "A router sends each customer message to the sales or the support agent.",
    document: supportRouting,
  },
  {
    id: "support-agent-tools",
    name: "Support agent with tools",
    summary: "A customer support agent that searches the help centre and uses a calculator before answering.",
    document: supportAgentTools,
  },
  {
    id: "knowledge-qa",
    name: "Knowledge Q&A",
    summary: "Finds the passages that match a question in a knowledge base and answers from them.",
    document: knowledgeQa,
  },
  {
    id: "loop-list",
    name: "Loop over a list",
    summary: "Runs an agent once for each item of a list and collects the results.",
    document: loopList,
  },
  {
    id: "ask-approval",
    name: "Ask and route",
    summary: "An agent drafts a plan, a person approves or rejects it, and the run follows the answer.",
    document: askApproval,
  },
];

/** Whether a template searches the sample knowledge base (so using it needs the base first). */
export function usesSampleKnowledge(template: WorkflowTemplate): boolean {
  return JSON.stringify(template.document).includes(JSON.stringify(SAMPLE_KNOWLEDGE_BASE));
}

/** The block types a template uses, in the order they first appear. */
export function templateBlockTypes(template: WorkflowTemplate): string[] {
  return [...new Set((template.document.blocks ?? []).map((block) => block.type))];
}

function replacePlaceholder(value: unknown, knowledgeBaseId: string): unknown {
  if (value === SAMPLE_KNOWLEDGE_BASE) return knowledgeBaseId;
  if (Array.isArray(value)) return value.map((item) => replacePlaceholder(item, knowledgeBaseId));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, replacePlaceholder(item, knowledgeBaseId)]),
    );
  }
  return value;
}

/** A copy of the template's workflow, named `name`, with the sample knowledge base's id where it searches one. */
export function fillTemplate(
  template: WorkflowTemplate,
  options: { name?: string; knowledgeBaseId?: string } = {},
): WorkflowDocumentInput {
  if (usesSampleKnowledge(template) && !options.knowledgeBaseId)
    throw new Error(`The "${template.name}" template needs the sample knowledge base's id`);
  const document = replacePlaceholder(
    template.document,
    options.knowledgeBaseId ?? SAMPLE_KNOWLEDGE_BASE,
  ) as WorkflowDocumentInput;
  return { ...document, name: options.name ?? template.name };
}
