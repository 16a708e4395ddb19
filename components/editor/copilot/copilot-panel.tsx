"use client";

import { useState } from "react";
import { Sparkles, X } from "lucide-react";
import { ApiError, api, type CopilotAnswer } from "@/contract";
import { useWorkspace } from "@/components/auth/workspace-context";
import { formatDollars } from "@/components/ui/format";
import { useModels } from "../inspector/editor-queries";
import { inputClass } from "../inspector/fields/field-props";
import { useEditorStore, useEditorStoreApi } from "../store";
import { keyedModels, useCopilotModel } from "./copilot-model";
import { CopilotProposalView } from "./copilot-proposal";

/**
 * The copilot: the user says what to build or change, the workspace's own model proposes it, and
 * the canvas shows the proposal until Accept (one undoable step) or Reject (the draft untouched).
 */
export function CopilotPanel({
  question,
  onClose,
}: {
  /** Asked from elsewhere: the message to start from, and the run it is about. */
  question: { message: string; runId?: string } | null;
  onClose: () => void;
}) {
  const store = useEditorStoreApi();
  const acting = useWorkspace();
  const models = useModels();
  const available = keyedModels(models.data);
  const [model, pickModel] = useCopilotModel(acting?.workspace.id, available);
  const [message, setMessage] = useState(question?.message ?? "");
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [answer, setAnswer] = useState<CopilotAnswer | null>(null);
  const unsaved = useEditorStore((state) => state.save.revision !== state.save.savedRevision);
  const proposal = useEditorStore((state) => state.copilotProposal);

  async function ask() {
    const state = store.getState();
    const askedAtRevision = state.save.revision;
    setPending(true);
    setProblem(null);
    try {
      const result = await api.workflows.copilot(state.workflowId, {
        message,
        model,
        version: state.save.version,
        ...(question?.runId ? { runId: question.runId } : {}),
      });
      setAnswer(result);
      store.getState().showCopilotProposal(result, askedAtRevision);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : "The server could not be reached.");
    } finally {
      setPending(false);
    }
  }

  function accept() {
    const refused = store.getState().acceptCopilotProposal();
    setProblem(refused);
    if (!refused) setAnswer(null);
  }

  function reject() {
    store.getState().rejectCopilotProposal();
    setAnswer(null);
  }

  return (
    <aside
      className="flex w-96 shrink-0 flex-col gap-3 overflow-y-auto border-l border-slate-200 bg-white p-3 text-sm"
      aria-label="Copilot"
      data-testid="copilot-panel"
    >
      <div className="flex items-center gap-2">
        <Sparkles className="h-4 w-4 text-indigo-600" aria-hidden />
        <h2 className="font-medium">Copilot</h2>
        <button type="button" className="icon-btn ml-auto" aria-label="Close the copilot" onClick={onClose}>
          <X className="h-4 w-4" aria-hidden />
        </button>
      </div>
      {available.length === 0 && !models.isPending ? (
        <p className="text-slate-600" data-testid="copilot-no-model">
          The copilot needs a language model. Store a provider&apos;s API key as a secret (OPENAI_API_KEY,
          ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY) or set a local server (OLLAMA_BASE_URL), then pick its model
          here. The offline model cannot build workflows.
        </p>
      ) : (
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-600">
            Model (a model the workspace has a key for; type openai-compatible/… or ollama/… ids)
          </span>
          <input
            className={inputClass}
            list="copilot-models"
            value={model}
            onChange={(event) => pickModel(event.target.value)}
            data-testid="copilot-model"
          />
          <datalist id="copilot-models">
            {available.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.label}
              </option>
            ))}
          </datalist>
        </label>
      )}
      {question?.runId && (
        <p className="text-xs text-slate-600" data-testid="copilot-run">
          About run {question.runId}: its errors and trace go with the question (inputs and outputs withheld).
        </p>
      )}
      <label className="flex flex-col gap-1">
        <span className="text-xs text-slate-600">What should it build, change or explain?</span>
        <textarea
          className={`${inputClass} min-h-24`}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          placeholder="When a support email arrives, classify it and answer refunds with the policy knowledge base"
          data-testid="copilot-message"
        />
      </label>
      <button
        type="button"
        className="btn-primary self-start"
        disabled={pending || !message.trim() || !model || unsaved || proposal !== null}
        onClick={() => void ask()}
        data-testid="copilot-ask"
      >
        {pending ? "Asking…" : "Ask"}
      </button>
      {unsaved && !pending && <p className="text-xs text-slate-500">Saving the draft first…</p>}
      {problem && (
        <p className="text-red-700" role="alert" data-testid="copilot-problem">
          {problem}
        </p>
      )}
      {answer && (
        <section className="flex flex-col gap-2" data-testid="copilot-answer">
          <p className="whitespace-pre-wrap">{answer.answer}</p>
          <p className="text-xs text-slate-500" data-testid="copilot-usage">
            This request: {answer.usage.tokens.total.toLocaleString("en-US")} tokens,{" "}
            {answer.usage.cost ? formatDollars(answer.usage.cost.total) : "unpriced"} ({answer.usage.calls} model calls)
          </p>
          <CopilotProposalView answer={answer} onAccept={accept} onReject={reject} />
        </section>
      )}
    </aside>
  );
}
