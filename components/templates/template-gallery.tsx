"use client";

import { LayoutTemplate } from "lucide-react";
import { useState } from "react";
import { getBlockDefinition } from "@/blocks";
import { templateBlockTypes, usesSampleKnowledge, WORKFLOW_TEMPLATES, type WorkflowTemplate } from "@/examples";

interface CardProps {
  template: WorkflowTemplate;
  compact: boolean;
  busy: boolean;
  disabled: boolean;
  onUse: () => void;
}

function TemplateCard({ template, compact, busy, disabled, onUse }: CardProps) {
  const blocks = templateBlockTypes(template).map((type) => getBlockDefinition(type) ?? { type, label: type });
  return (
    <li
      className={`flex flex-col rounded-lg border border-slate-200 bg-white ${compact ? "p-2.5" : "p-4"}`}
      data-testid={`template-${template.id}`}
    >
      <h3 className={`font-medium ${compact ? "text-sm" : ""}`}>{template.name}</h3>
      <p className={`mt-1 flex-1 text-slate-600 ${compact ? "text-xs" : "text-sm"}`}>{template.summary}</p>
      <ul className="mt-3 flex flex-wrap gap-1" aria-label={`Blocks of ${template.name}`}>
        {blocks.map((block) => (
          <li key={block.type} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
            {block.label}
          </li>
        ))}
      </ul>
      {usesSampleKnowledge(template) && !compact && (
        <p className="mt-2 text-xs text-slate-500">Adds a sample knowledge base to the workspace (once).</p>
      )}
      <button
        type="button"
        className="btn-secondary mt-3 self-start"
        onClick={onUse}
        disabled={disabled}
        data-testid={`use-template-${template.id}`}
      >
        {busy ? "Creating…" : "Use template"}
      </button>
    </li>
  );
}

/**
 * The templates (examples/), as cards: name, what it does, the blocks it uses. `onUse` makes the
 * workflow; while it runs every card waits, and its error shows above them.
 */
export function TemplateGallery({
  onUse,
  title = "Start from a template",
  compact = false,
}: {
  onUse: (template: WorkflowTemplate) => Promise<void>;
  title?: string;
  /** One row of small cards, for the panel over an empty canvas. */
  compact?: boolean;
}) {
  const [busyId, setBusyId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const use = async (template: WorkflowTemplate) => {
    setBusyId(template.id);
    setProblem(null);
    try {
      await onUse(template);
    } catch (error) {
      setProblem(
        `Could not use the "${template.name}" template: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      setBusyId(null);
    }
  };
  return (
    <section aria-label="Templates" data-testid="template-gallery">
      <h2 className={`flex items-center gap-2 font-semibold ${compact ? "text-sm" : "text-lg"}`}>
        <LayoutTemplate size={18} className="text-indigo-600" aria-hidden /> {title}
      </h2>
      <p className={`mt-1 text-slate-500 ${compact ? "text-xs" : "text-sm"}`}>
        Each runs at once on the built-in offline model, which needs no key and is not a language model: it echoes,
        routes by shared words and scores by simple text features. Choose a real model in a block for real answers.
      </p>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
      <ul className={`mt-3 grid gap-3 ${compact ? "grid-cols-5" : "sm:grid-cols-2 lg:grid-cols-3"}`}>
        {WORKFLOW_TEMPLATES.map((template) => (
          <TemplateCard
            key={template.id}
            template={template}
            compact={compact}
            busy={busyId === template.id}
            disabled={busyId !== null}
            onUse={() => void use(template)}
          />
        ))}
      </ul>
    </section>
  );
}
