"use client";

import { useState } from "react";
import type { ModelSummary } from "@/contract";

const STORAGE_PREFIX = "trellis.copilot-model.";

/** Models the copilot may use: language models whose provider has what it needs in this workspace. */
export function keyedModels(models: readonly ModelSummary[] | undefined): ModelSummary[] {
  // `openai-compatible/<model>` and the like are typed in, not picked.
  return (models ?? []).filter((model) => !model.offline && !model.missingSetting && !model.id.includes("<"));
}

/** The copilot's model, remembered per workspace in this browser; the first keyed model until one is picked or typed. */
export function useCopilotModel(workspaceId: string | undefined, available: readonly ModelSummary[]) {
  const key = `${STORAGE_PREFIX}${workspaceId ?? "none"}`;
  // The panel opens on a click, in the browser: localStorage is there to read at once.
  const [picked, setPicked] = useState<string | null>(() => window.localStorage.getItem(key));
  const model = picked ?? available[0]?.id ?? "";
  const pick = (id: string) => {
    setPicked(id);
    window.localStorage.setItem(key, id);
  };
  return [model, pick] as const;
}
