import { noSampleAnswer, type Simulation } from "@/executor";
import type { FunctionHostServices } from "./host-services";

/**
 * Test runs: `services.fetch` answered from the Function block's sample (`testing.http`, the same
 * answer for every call of the block) and never sent. Without a sample the answer has status 0,
 * `ok: false` and a `noSample` message, so the code can tell; the run goes on.
 */
export function simulatedFetchService(simulation: Simulation): FunctionHostServices["fetch"] {
  return async (url, init) => {
    const sample = simulation.http();
    if (!sample)
      return {
        status: 0,
        ok: false,
        headers: {},
        body: null,
        ...noSampleAnswer(simulation, `services.fetch ${init.method ?? "GET"} ${url}`),
      };
    const headers = Object.fromEntries(
      Object.entries(sample.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    return {
      status: sample.status,
      ok: sample.status >= 200 && sample.status < 300,
      headers,
      body: sample.body ?? null,
      simulated: "sample",
    };
  };
}
