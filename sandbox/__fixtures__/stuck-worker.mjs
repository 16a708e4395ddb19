// Stands in for a QuickJS worker whose interrupt handler never fires: it reports that user code
// started, then spins forever. Only the host's watchdog can stop it.
import { parentPort } from "node:worker_threads";

parentPort.once("message", () => {
  parentPort.postMessage({ type: "started" });
  for (;;) {
    // spin
  }
});
