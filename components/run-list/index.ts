export { RunListPage } from "./run-list-page";
export { filtersFromSearch, NO_FILTERS, runListHref, type RunListFilters } from "./run-list-filters";
