export { RunControls } from "./run-controls";
export { RunPanel } from "./run-panel";
export { NodeAsks } from "./ask-form";
export { NodeRunBadge, useBlockRunOutline, useEdgeTaken } from "./node-run-badge";
export { formatCost, formatDollars, formatDuration, formatTokens, formatTokenCount, figureMarks } from "./format";
export { runHref, workflowHref } from "./run-href";
export { PastRunBanner } from "./past-run-banner";
export { RunStatusBadge } from "./run-badges";
