export { createWorkflowToolProvider, WORKFLOW_TOOL_TYPE } from "./workflow-tool";
export {
  checkWorkflowCall,
  childRunFailure,
  describeCalledWorkflow,
  DEFAULT_MAX_WORKFLOW_DEPTH,
  MAX_WORKFLOW_DEPTH_ENV,
  maxWorkflowDepthFrom,
  WorkflowRecursionError,
  type RunWorkflowFunction,
  type RunWorkflowRequest,
  type WorkflowCallLink,
  type WorkflowCalls,
  type WorkflowCallTarget,
  type WorkflowRunResult,
  type WorkflowToolTarget,
} from "./workflow-calls";
export { parametersForWorkflow, toolNameForWorkflow } from "./workflow-tool-schema";
