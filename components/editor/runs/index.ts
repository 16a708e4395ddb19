export { RunControls } from "./run-controls";
export { RunPanel } from "./run-panel";
export { NodeAsks } from "./ask-form";
export { NodeRunBadge, useBlockRunOutline, useEdgeTaken } from "./node-run-badge";
export { PastRunBanner } from "./past-run-banner";
export { useRunStream } from "./use-run-stream";
