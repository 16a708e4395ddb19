export { DeployButton } from "./deploy-button";
