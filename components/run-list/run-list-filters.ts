import {
  RUN_STATUSES,
  RUN_TRIGGER_KINDS,
  type RunStatus,
  type RunTriggerKind,
  type WorkspaceRunPageRequest,
} from "@/contract";

/** What the Runs page shows, as its address carries it (`/runs?workflow=…&status=failed&trigger=api`), so a filtered list can be shared. */
export interface RunListFilters {
  workflow: string;
  status: RunStatus | "";
  trigger: RunTriggerKind | "";
}

export const NO_FILTERS: RunListFilters = { workflow: "", status: "", trigger: "" };

type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";
const oneOf = <Value extends string>(values: readonly Value[], value: string): Value | "" =>
  (values as readonly string[]).includes(value) ? (value as Value) : "";

/** The filters in a page's search params; a value the list does not know (a status misspelt in a link) is left out rather than refused. */
export function filtersFromSearch(search: SearchParams): RunListFilters {
  return {
    workflow: first(search.workflow),
    status: oneOf(RUN_STATUSES, first(search.status)),
    trigger: oneOf(RUN_TRIGGER_KINDS, first(search.trigger)),
  };
}

/** The page's address for these filters: `/runs` with only the ones set. */
export function runListHref(filters: RunListFilters): string {
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== ""));
  const text = query.toString();
  return text ? `/runs?${text}` : "/runs";
}

/** The filters as GET /api/runs takes them. */
export function toRunPageRequest(filters: RunListFilters): WorkspaceRunPageRequest {
  return {
    ...(filters.workflow ? { workflow: filters.workflow } : {}),
    ...(filters.status ? { status: [filters.status] } : {}),
    ...(filters.trigger ? { trigger: [filters.trigger] } : {}),
  };
}
