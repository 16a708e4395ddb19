/** The place on every node where a run shows itself; the run UI (../runs) draws it. */
export { NodeRunBadge as RunBadge } from "../runs";
