/**
 * The floor a burst is measured against: a Node server that does nothing but answer 202 with a
 * small JSON body, in a process of its own like the app's server, on the same machine as the
 * clients. What it takes to answer a burst is what the clients, the kernel and Node's HTTP parsing
 * cost here; no handler, however fast, can answer below it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

const NO_OP_SERVER = `
const server = require("node:http").createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(202, { "content-type": "application/json" });
    response.end('{"runId":"floor"}');
  });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

export interface FloorServer {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startFloorServer(): Promise<FloorServer> {
  const child: ChildProcess = spawn(process.execPath, ["-e", NO_OP_SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
  const port = Number(chunk.toString("utf8").trim());
  if (!Number.isInteger(port)) throw new Error(`the floor server printed no port: ${chunk.toString("utf8")}`);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode !== null) return;
      child.kill();
      await once(child, "exit");
    },
  };
}
