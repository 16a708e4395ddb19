/** A metric as the evaluator's config schema gives it (declared here so the definition can import this file). */
interface Metric {
  name: string;
  description: string;
  range: { min: number; max: number };
}

/** Output key of a metric: its name, lowercased (docs/CONTRACT.md section 1). */
export function metricKey(metric: Pick<Metric, "name">): string {
  return metric.name.trim().toLowerCase();
}

/** The output key of the model's reasons, asked for when the block's `explain` is on. */
export const REASONING_KEY = "reasoning";

/**
 * The JSON Schema the scores must match: one number per metric, within its range, and with `explain`
 * the reasons first, so the model writes them before it commits to numbers.
 */
export function scoresSchema(metrics: readonly Metric[], explain = false): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  if (explain)
    properties[REASONING_KEY] = {
      type: "string",
      description: "One to three sentences: why the content earns these scores, naming what it does well or lacks.",
    };
  for (const metric of metrics) {
    properties[metricKey(metric)] = {
      type: "number",
      minimum: metric.range.min,
      maximum: metric.range.max,
      description: metric.description || metric.name,
    };
  }
  const required = metrics.map(metricKey);
  return {
    type: "object",
    properties,
    required: explain ? [REASONING_KEY, ...required] : required,
    additionalProperties: false,
  };
}

export function buildEvaluatorSystemPrompt(metrics: readonly Metric[], explain = false): string {
  const lines = metrics.map(
    (metric) =>
      `- "${metricKey(metric)}": ${metric.description || metric.name} (a number from ${metric.range.min} to ${metric.range.max})`,
  );
  const example = JSON.stringify({
    ...(explain ? { [REASONING_KEY]: "…" } : {}),
    ...Object.fromEntries(metrics.map((metric) => [metricKey(metric), metric.range.min])),
  });
  return [
    "You are an objective evaluator. Score the content the user gives you on each metric below.",
    "",
    "Metrics:",
    ...lines,
    "",
    explain
      ? `Answer with only a JSON object holding "${REASONING_KEY}" (one to three sentences on why) and one number per metric, for example ${example}. No other text.`
      : `Answer with only a JSON object holding one number per metric, for example ${example}. No other text.`,
  ].join("\n");
}

/** Problems with a model's scores; empty when every metric has an in-range number. */
export function validateScores(value: unknown, metrics: readonly Metric[], explain = false): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return ["the answer is not a JSON object"];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  if (explain && (typeof record[REASONING_KEY] !== "string" || !(record[REASONING_KEY] as string).trim()))
    problems.push(`"${REASONING_KEY}" must be a sentence saying why`);
  for (const metric of metrics) {
    const key = metricKey(metric);
    const score = record[key];
    if (typeof score !== "number" || !Number.isFinite(score)) problems.push(`"${key}" must be a number`);
    else if (score < metric.range.min || score > metric.range.max)
      problems.push(`"${key}" is ${score}, outside ${metric.range.min} to ${metric.range.max}`);
  }
  return problems;
}
