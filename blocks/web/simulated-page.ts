import { noSampleAnswer, type Simulation } from "@/executor";
import type { WebConfig } from "./definition";

/**
 * Test runs: the Web block's page from the block's sample (`testing.page`), never fetched; its
 * text is cut at `maxChars` as a fetched page's is. Without a sample the page is empty and the
 * output says that no sample was given; the run goes on.
 */
export function simulatedPage(config: WebConfig, simulation: Simulation): Record<string, unknown> {
  const sample = simulation.page();
  if (!sample) {
    simulation.markBlock("no-sample");
    return {
      url: config.url,
      status: 0,
      title: "",
      text: "",
      truncated: false,
      ...noSampleAnswer(simulation, `reading ${config.url}`),
    };
  }
  simulation.markBlock("sample");
  const truncated = sample.text.length > config.maxChars;
  return {
    url: config.url,
    status: sample.status ?? 200,
    title: sample.title ?? "",
    text: truncated ? sample.text.slice(0, config.maxChars) : sample.text,
    truncated,
  };
}
