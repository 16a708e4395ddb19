/**
 * Models their providers have shut down, by family, with the day each stopped answering. The price
 * catalog keeps retired models (old runs are still priced with them) and marks almost none of them
 * deprecated, so the picker reads this rule instead. Maintained by hand against the providers'
 * deprecation pages; a model id typed by hand is still accepted (and fails with the provider's
 * own error if it is really gone).
 */
export interface RetiredFamily {
  provider: string;
  /** Matches the provider's own model id (the part after `provider/`), dated variants included. */
  pattern: RegExp;
  /** The first day (UTC) the provider no longer served it. */
  retiredOn: string;
}

const OPENAI = "https://platform.openai.com/docs/deprecations";
const ANTHROPIC = "https://docs.anthropic.com/en/docs/about-claude/model-deprecations";
const GOOGLE = "https://ai.google.dev/gemini-api/docs/changelog";

/** Sources, for whoever updates the list. */
export const RETIRED_MODEL_SOURCES = { openai: OPENAI, anthropic: ANTHROPIC, google: GOOGLE } as const;

export const RETIRED_FAMILIES: readonly RetiredFamily[] = [
  { provider: "openai", pattern: /^(ada|babbage|curie|davinci|text-davinci-\d+)$/, retiredOn: "2024-01-04" },
  { provider: "openai", pattern: /^gpt-3\.5(-turbo)?-0301$/, retiredOn: "2024-06-13" },
  { provider: "openai", pattern: /^gpt-3\.5-turbo-(0613|16k(-0613)?)$/, retiredOn: "2024-09-13" },
  { provider: "openai", pattern: /^gpt-4-vision-preview$/, retiredOn: "2024-12-06" },
  { provider: "openai", pattern: /^gpt-4-32k/, retiredOn: "2025-06-06" },
  { provider: "openai", pattern: /^gpt-4\.5-preview/, retiredOn: "2025-07-14" },
  { provider: "openai", pattern: /^o1-preview/, retiredOn: "2025-07-28" },
  { provider: "openai", pattern: /^o1-mini/, retiredOn: "2025-10-27" },
  { provider: "openai", pattern: /^chatgpt-4o-latest$/, retiredOn: "2026-02-17" },
  { provider: "anthropic", pattern: /^claude-(v1|instant|1)/, retiredOn: "2024-11-06" },
  { provider: "anthropic", pattern: /^claude-2/, retiredOn: "2025-07-21" },
  { provider: "anthropic", pattern: /^claude-3-sonnet/, retiredOn: "2025-07-21" },
  { provider: "anthropic", pattern: /^claude-3-5-sonnet/, retiredOn: "2025-10-22" },
  { provider: "anthropic", pattern: /^claude-3-opus/, retiredOn: "2026-01-05" },
  { provider: "anthropic", pattern: /^claude-3-(5-haiku|7-sonnet)/, retiredOn: "2026-02-19" },
  { provider: "google", pattern: /^gemini-(1\.0-pro|pro$|pro-vision)/, retiredOn: "2025-04-09" },
  { provider: "google", pattern: /^gemini-(1\.5-|flash-1\.5|pro-1\.5)/, retiredOn: "2025-09-24" },
];

/** Whether `provider/model` had been shut down by `today` (a `YYYY-MM-DD` day, UTC). */
export function isRetiredModel(
  provider: string,
  model: string,
  today: string = new Date().toISOString().slice(0, 10),
): boolean {
  return RETIRED_FAMILIES.some(
    (family) => family.provider === provider && family.retiredOn <= today && family.pattern.test(model),
  );
}
