export { EvaluationsButton } from "./evaluations-drawer";
export { AddToDataset } from "./add-to-dataset";
