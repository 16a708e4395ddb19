export {
  availableFileToolTypes,
  createFileToolProviders,
  FILE_INFO_TOOL_TYPE,
  FILE_TOOL_TYPES,
  LIST_DIRECTORY_TOOL_TYPE,
  READ_FILE_TOOL_TYPE,
  SEARCH_FILES_TOOL_TYPE,
  WRITE_FILE_TOOL_TYPE,
} from "./file-tools";
export {
  DEFAULT_FILES_MAX_BYTES,
  FILES_MAX_BYTES_ENV,
  FILES_ROOT_ENV,
  FILES_WRITE_ENV,
  filesSettingsFrom,
  workspaceFiles,
  type FilesSettings,
  type WorkspaceFiles,
} from "./files-settings";
