"use client";

import { FlaskConical } from "lucide-react";
import { getBlockDefinition } from "@/blocks";
import { useEditorStore } from "../../store";
import { HttpSampleEditor } from "./http-sample-editor";
import { PageSampleEditor } from "./page-sample-editor";
import { RecordedAnswerPicker } from "./recorded-answer-picker";
import { testSampleParts, type TestSampleParts } from "./test-sample-parts";
import { ToolSamplesEditor } from "./tool-samples-editor";

function usedFor(parts: TestSampleParts): string {
  const noSample = 'Without a sample the call answers "no sample" and the run goes on.';
  if (parts.toolCalls)
    return `Used by test runs only: side-effecting tool calls are answered from here, not made. ${noSample}`;
  if (parts.recordedAnswers)
    return "Used by test runs only: the model runs for real unless you pick one of its recorded answers.";
  return `Used by test runs only: the call is answered from here, not sent. ${noSample}`;
}

/**
 * "Test sample": what the block answers in a test run (the toolbar's Test run, or `test: true`)
 * instead of sending its calls, and for model blocks whether to reuse a recorded answer. Shown
 * only for blocks a test run treats differently; a real run ignores all of it.
 */
export function TestSampleSection({ blockId }: { blockId: string }) {
  const type = useEditorStore((state) => state.nodes.find((node) => node.id === blockId)?.data.type);
  const hasTools = useEditorStore((state) => {
    const tools = state.nodes.find((node) => node.id === blockId)?.data.config.tools;
    return Array.isArray(tools) && tools.length > 0;
  });
  if (!type) return null;
  const parts = testSampleParts(getBlockDefinition(type), hasTools);
  if (!parts.shown) return null;
  return (
    <section className="space-y-2 rounded border border-teal-200 bg-teal-50/40 p-2" data-testid="test-sample-section">
      <h3 className="flex items-center gap-1 text-xs font-semibold text-teal-900">
        <FlaskConical className="h-3.5 w-3.5" aria-hidden /> Test sample
      </h3>
      <p className="text-[11px] text-slate-600">{usedFor(parts)}</p>
      {parts.request && <HttpSampleEditor blockId={blockId} what={parts.request} />}
      {parts.page && <PageSampleEditor blockId={blockId} />}
      {parts.toolCalls && <ToolSamplesEditor blockId={blockId} />}
      {parts.recordedAnswers && <RecordedAnswerPicker blockId={blockId} />}
    </section>
  );
}
