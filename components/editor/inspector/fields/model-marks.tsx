"use client";

import type { ModelSummary } from "@/contract";
import { formatPricePerMillion } from "@/components/prices/price-text";

export function modelPriceText(model: ModelSummary): string {
  if (model.offline && model.priceSource !== "workspace-override") return "free";
  if (model.unpriced || !model.prices) return "unpriced";
  return `${formatPricePerMillion(model.prices.input)} in · ${formatPricePerMillion(model.prices.output)} out per 1M tokens`;
}

/** "override" on a model this workspace prices itself (Settings › Prices). */
export function OverrideMark({ model }: { model: ModelSummary }) {
  if (model.priceSource !== "workspace-override") return null;
  return (
    <span
      className="ml-1 rounded bg-violet-100 px-1 text-[10px] font-medium text-violet-800"
      title="This workspace's own price (Settings › Prices)"
      data-testid="model-price-override"
    >
      override
    </span>
  );
}

/** The hover text of a model whose provider is not set up yet: which variable to set, and where. */
export function missingSettingTitle(variable: string): string {
  return variable.endsWith("_BASE_URL")
    ? `Not set up: the server's operator sets ${variable} in its environment (Settings › Model providers says more)`
    : `No key: set one in Settings › Model providers (kept as the workspace secret ${variable}), or set ${variable} in the server's environment`;
}

/** Where a provider's key is set: its card on Settings › Model providers. */
export function providerSettingsHref(provider: string): string {
  return `/settings/providers#${encodeURIComponent(provider)}`;
}

/**
 * "no key" (or "no server" for a missing base URL) on a model its provider cannot run yet for this
 * workspace: a link to the provider's card on Settings › Model providers, opened in a new tab so
 * the editor stays as it is (the model list is read again when the editor's tab is back in focus).
 */
export function MissingSettingMark({ model }: { model: ModelSummary }) {
  if (!model.missingSetting) return null;
  return (
    <a
      href={providerSettingsHref(model.provider)}
      target="_blank"
      rel="noopener"
      className="ml-1 rounded bg-amber-100 px-1 text-[10px] font-medium text-amber-900 underline-offset-2 hover:underline"
      title={missingSettingTitle(model.missingSetting)}
      data-testid="model-missing-setting"
      // Inside the picker's list an option is picked on mouse down: the link is followed instead,
      // and the field keeps its focus so the list stays open until the click lands.
      onMouseDown={(event) => {
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      {model.missingSetting.endsWith("_BASE_URL") ? "no server" : "no key"}
    </a>
  );
}

/** The provider's mark beside a model (public/providers/), named by the provider for screen readers. */
export function ProviderLogo({ model }: { model: ModelSummary }) {
  return (
    // eslint-disable-next-line @next/next/no-img-element -- a 14 px SVG: next/image adds nothing
    <img
      src={model.logo}
      alt={model.provider}
      width={14}
      height={14}
      className="mr-1.5 inline-block shrink-0 align-[-2px]"
      data-testid="model-provider-logo"
    />
  );
}

interface OptionProps {
  model: ModelSummary;
  selected: boolean;
  active: boolean;
  onPick(id: string): void;
}

/** One model in the picker's list: provider logo, label, price, marks, id. */
export function ModelOption({ model, selected, active, onPick }: OptionProps) {
  const background = active ? "bg-slate-100" : selected ? "bg-indigo-50" : "hover:bg-slate-100";
  return (
    <li
      role="option"
      aria-selected={selected}
      data-testid="model-option"
      data-model-id={model.id}
      data-active={active || undefined}
      title={model.description}
      className={`cursor-pointer px-2 py-1 ${background}`}
      onMouseDown={(event) => {
        event.preventDefault();
        onPick(model.id);
      }}
    >
      {/* The label wraps rather than being cut: "OpenAI: GPT-4.1 mini" must be read whole to choose it. */}
      <div className="flex justify-between gap-2">
        <span className="min-w-0 break-words" data-testid="model-option-label">
          <ProviderLogo model={model} />
          {model.label}
          <MissingSettingMark model={model} />
        </span>
        <span className={`shrink-0 ${model.unpriced ? "text-amber-700" : "text-slate-500"}`}>
          {modelPriceText(model)}
          <OverrideMark model={model} />
        </span>
      </div>
      <div className="font-mono text-[10px] text-slate-400">{model.id}</div>
    </li>
  );
}
