import "server-only";

/** Datasets (docs/CONTRACT.md section 13): versioned cases, their import, and "Add to dataset". */
export { casesAtVersion, DatasetRepository, type NewCase } from "./dataset-repository";
export { createDatasetService, type DatasetService } from "./dataset-service";
export { datasetEndpoints, type DatasetEndpoints } from "./dataset-endpoints";
export { appDatasetEndpoints } from "./app-dataset-endpoints";
