// Reports the heap limit V8 gives a worker thread, for sandbox-footprint.test.ts.
import { parentPort } from "node:worker_threads";
import v8 from "node:v8";

parentPort.postMessage(v8.getHeapStatistics().heap_size_limit);
