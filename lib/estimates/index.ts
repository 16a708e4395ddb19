/** The cost estimate of a run before it runs (docs/CONTRACT.md section 12). */
export { estimateWorkflow, type EstimateSources, type PriceLookup } from "./estimate-workflow";
export { estimateEndpoints, type EstimateDependencies, type EstimateEndpoints } from "./estimate-endpoints";
export { ESTIMATE_DEFAULTS } from "./estimate-defaults";
