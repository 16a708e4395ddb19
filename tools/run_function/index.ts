export { createRunFunctionToolProvider, RUN_FUNCTION_TOOL_TYPE, type RunFunctionToolDeps } from "./run-function-tool";
