import { keywordsOf, overlapCount } from "./keywords";

/**
 * How the offline model scores content when asked for a JSON object of bounded numbers, which is
 * what the evaluator block asks for (blocks/evaluator/evaluator-prompt.ts: one number per metric,
 * with the metric's description, minimum and maximum). Each metric gets a score from simple text
 * features chosen by the words of its name and description (length, brevity, structure, tone) and
 * the overlap of its description with the content. Deterministic and within range; it measures
 * words, not quality, which is why the offline model is not a language model.
 */
export interface MetricSpec {
  key: string;
  description: string;
  minimum: number;
  maximum: number;
  integer: boolean;
}

type Schema = Record<string, unknown>;

const isRecord = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The string property an evaluator asks for its reasons in, beside the numbers (its `explain` option). */
export const REASONS_PROPERTY = "reasoning";

/**
 * The metrics of a schema whose every property is a number with a minimum and a maximum (a string
 * `reasoning` aside); undefined for any other schema.
 */
export function metricsOfSchema(schema: unknown): MetricSpec[] | undefined {
  if (!isRecord(schema) || !isRecord(schema.properties)) return undefined;
  const metrics: MetricSpec[] = [];
  for (const [key, property] of Object.entries(schema.properties)) {
    if (key === REASONS_PROPERTY && isRecord(property) && property.type === "string") continue;
    if (!isRecord(property) || (property.type !== "number" && property.type !== "integer")) return undefined;
    const { minimum, maximum } = property;
    if (typeof minimum !== "number" || typeof maximum !== "number" || !(maximum >= minimum)) return undefined;
    const description = typeof property.description === "string" ? property.description : "";
    metrics.push({ key, description, minimum, maximum, integer: property.type === "integer" });
  }
  return metrics.length > 0 ? metrics : undefined;
}

interface TextFeatures {
  words: number;
  sentences: number;
  keywords: Set<string>;
  hasParagraphsOrList: boolean;
  politeWords: number;
}

function featuresOf(content: string): TextFeatures {
  const words = content.match(/[\p{L}\p{N}']+/gu)?.length ?? 0;
  const sentences = content.split(/[.!?]+(?:\s|$)/).filter((sentence) => sentence.trim()).length;
  return {
    words,
    sentences,
    keywords: new Set(keywordsOf(content)),
    hasParagraphsOrList: /\n\s*\n|^\s*(?:[-*•]|\d+[.)])\s/m.test(content),
    politeWords: content.match(/\b(?:please|thank(?:s| you)?|sorry|apolog\w*|happy to|glad|welcome)\b/gi)?.length ?? 0,
  };
}

/** Each feature is a fraction from 0 to 1. */
const FEATURES = {
  /** More words, up to about 80, read as more complete. */
  length: (text: TextFeatures) => Math.min(1, text.words / 80),
  /** Up to 30 words is fully concise; 300 or more not at all. */
  brevity: (text: TextFeatures) => (text.words === 0 ? 0 : Math.max(0, Math.min(1, (300 - text.words) / 270))),
  /** Sentences of 8 to 25 words, and paragraphs or a list, read as clear. */
  structure: (text: TextFeatures) => {
    if (text.words === 0) return 0;
    const perSentence = text.words / Math.max(1, text.sentences);
    const sentenceFit =
      perSentence < 8 ? perSentence / 8 : perSentence > 25 ? Math.max(0, 1 - (perSentence - 25) / 25) : 1;
    return 0.75 * sentenceFit + (text.hasParagraphsOrList ? 0.25 : 0);
  },
  /** Courtesy words (please, thanks, sorry, glad): two or more is fully polite. */
  tone: (text: TextFeatures) => Math.min(1, text.politeWords / 2),
} satisfies Record<string, (text: TextFeatures) => number>;

type FeatureName = keyof typeof FEATURES;

/** Which features a metric's words ask for. */
const FEATURE_TRIGGERS: Record<FeatureName, readonly string[]> = {
  length: ["complete", "completeness", "detail", "thorough", "comprehensive", "depth", "coverage"],
  brevity: ["concise", "conciseness", "brief", "brevity", "short", "succinct", "length"],
  structure: [
    "clarity",
    "clear",
    "readability",
    "readable",
    "structure",
    "format",
    "grammar",
    "coherence",
    "coherent",
    "organized",
  ],
  tone: [
    "tone",
    "polite",
    "politeness",
    "friendly",
    "empathy",
    "empathetic",
    "courtesy",
    "courteous",
    "kind",
    "warm",
    "professional",
  ],
};

/** The triggers as keywordsOf gives words (stemmed), so "details" in a description finds "detail". */
const TRIGGER_STEMS = Object.fromEntries(
  Object.entries(FEATURE_TRIGGERS).map(([name, words]) => [name, new Set(words.flatMap((word) => keywordsOf(word)))]),
) as Record<FeatureName, Set<string>>;

/** Metric words that say nothing about what is measured, left out of the overlap. */
const METRIC_WORDS = new Set([
  "score",
  "rate",
  "rating",
  "measure",
  "metric",
  "content",
  "answer",
  "response",
  "text",
  "how",
  "much",
  "well",
  "number",
]);

/** A fraction from 0 to 1 for one metric: its features (else relevance alone), with relevance blended in. */
export function metricFraction(metric: Pick<MetricSpec, "key" | "description">, content: string): number {
  const text = featuresOf(content);
  if (text.words === 0) return 0;
  const metricWords = keywordsOf(`${metric.key} ${metric.description}`).filter((word) => !METRIC_WORDS.has(word));
  const wanted = (Object.keys(FEATURES) as FeatureName[]).filter((name) =>
    metricWords.some((word) => TRIGGER_STEMS[name].has(word)),
  );
  // Relevance: how many of the metric's words the content uses; three or more counts as fully relevant.
  const relevance = Math.min(
    1,
    overlapCount(metricWords, text.keywords) / Math.min(3, Math.max(1, metricWords.length)),
  );
  if (wanted.length === 0) return 0.3 + 0.7 * relevance;
  const featureScore = wanted.reduce((sum, name) => sum + FEATURES[name](text), 0) / wanted.length;
  return 0.8 * featureScore + 0.2 * relevance;
}

/** Scores for every metric, each within its range (one decimal place, or whole numbers for an integer metric). */
export function scoreMetrics(metrics: readonly MetricSpec[], content: string): Record<string, number> {
  const scores: Record<string, number> = {};
  for (const metric of metrics) {
    const raw = metric.minimum + metricFraction(metric, content) * (metric.maximum - metric.minimum);
    const rounded = metric.integer ? Math.round(raw) : Math.round(raw * 10) / 10;
    scores[metric.key] = Math.min(metric.maximum, Math.max(metric.minimum, rounded));
  }
  return scores;
}
