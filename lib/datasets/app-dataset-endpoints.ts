import "server-only";
import { getPrisma, getRepositories } from "@/lib/db";
import { datasetEndpoints } from "./dataset-endpoints";
import { DatasetRepository } from "./dataset-repository";
import { createDatasetService } from "./dataset-service";

/** The dataset endpoints over the app's database. */
export const appDatasetEndpoints = datasetEndpoints(() =>
  createDatasetService(new DatasetRepository(getPrisma()), getRepositories()),
);
