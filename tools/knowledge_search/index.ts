export { createKnowledgeSearchToolProvider, KNOWLEDGE_SEARCH_TOOL_TYPE } from "./knowledge-search-tool";
