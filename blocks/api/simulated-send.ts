import type { Simulation } from "@/executor";
import type { GuardedFetch } from "@/net";

/**
 * Test runs: the API block's request answered from the block's sample (`testing.http`) and never
 * sent. The answer goes through the handler as a real one would (decoding, a 4xx or 5xx failing
 * the block, retries), so a sample of 500 tests the error path. Without a sample the answer has
 * status 0 (no response) and a JSON body saying that no sample was given; the run goes on.
 */
export function simulatedSend(simulation: Simulation): GuardedFetch {
  return async (request) => {
    const sample = simulation.http();
    if (!sample) {
      simulation.markBlock("no-sample");
      const body = { simulated: "no-sample", noSample: simulation.noSample(`the ${request.method ?? "GET"} request`) };
      return {
        url: request.url,
        status: 0,
        headers: { "content-type": "application/json" },
        body: Buffer.from(JSON.stringify(body)),
        redirects: 0,
      };
    }
    simulation.markBlock("sample");
    const headers = Object.fromEntries(
      Object.entries(sample.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
    );
    let body = "";
    if (typeof sample.body === "string") {
      body = sample.body;
      headers["content-type"] ??= "text/plain; charset=utf-8";
    } else if (sample.body !== undefined) {
      body = JSON.stringify(sample.body);
      headers["content-type"] ??= "application/json";
    }
    return { url: request.url, status: sample.status, headers, body: Buffer.from(body), redirects: 0 };
  };
}
