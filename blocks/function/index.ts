export { createFunctionHandler, type FunctionHandlerDeps } from "./handler";
export { substituteCodeReferences, codeLiteral, type CodeReferenceResolver } from "./code-references";
export {
  createSimulatedServices,
  guardedFetchService,
  type AgentServiceAnswer,
  type AgentServiceOptions,
  type FetchServiceAnswer,
  type FetchServiceInit,
  type FunctionHostServices,
  type ServiceCall,
  type SimulatedAnswers,
  type SimulatedServices,
} from "./host-services";
export { createProviderAgentService } from "./provider-agent-service";
