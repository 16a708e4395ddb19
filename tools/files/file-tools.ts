import { realpath } from "node:fs/promises";
import { jsonSchema, tool, type Tool } from "ai";
import { BlockExecutionError, isTrellisError } from "@/core";
import type { ToolContext, ToolEntry, ToolProvider, ToolSet } from "../types";
import { fileInfo } from "./file-info";
import { FILES_WRITE_ENV, type WorkspaceFiles } from "./files-settings";
import { DEFAULT_LIST_ENTRIES, listDirectory, MAX_LIST_ENTRIES } from "./list-directory";
import { DEFAULT_READ_BYTES, readTextFile } from "./read-file";
import { FileRefusedError, type FilesBase } from "./safe-path";
import { DEFAULT_SEARCH_RESULTS, MAX_SEARCH_RESULTS, searchFiles } from "./search-files";
import { writeTextFile } from "./write-file";

export const READ_FILE_TOOL_TYPE = "file_read";
export const LIST_DIRECTORY_TOOL_TYPE = "file_list";
export const SEARCH_FILES_TOOL_TYPE = "file_search";
export const FILE_INFO_TOOL_TYPE = "file_info";
export const WRITE_FILE_TOOL_TYPE = "file_write";

const PATH_HELP = 'A path relative to the workspace files folder, with "/" between folders, such as "notes/todo.md"';

type ToolFactory = (base: FilesBase, context: ToolContext) => Tool;

const READ_TOOLS: Record<string, ToolFactory> = {
  [READ_FILE_TOOL_TYPE]: (base) =>
    tool({
      description: `Reads a UTF-8 text file of the workspace files folder, whole or a range of lines. Files over ${base.maxBytes} bytes, binaries and links out of the folder are refused.`,
      inputSchema: jsonSchema<{ path: string; startLine?: number; endLine?: number; maxBytes?: number }>({
        type: "object",
        properties: {
          path: { type: "string", description: PATH_HELP },
          startLine: { type: "integer", minimum: 1, description: "First line to return (from 1)" },
          endLine: { type: "integer", minimum: 1, description: "Last line to return (inclusive)" },
          maxBytes: {
            type: "integer",
            minimum: 1,
            description: `Return at most this many bytes (default ${DEFAULT_READ_BYTES})`,
          },
        },
        required: ["path"],
        additionalProperties: false,
      }),
      execute: (input) => readTextFile(base, input),
    }),
  [LIST_DIRECTORY_TOOL_TYPE]: (base, context) =>
    tool({
      description:
        "Lists a folder of the workspace files folder: each entry's path, type and size. recursive also lists sub-folders.",
      inputSchema: jsonSchema<{ path?: string; recursive?: boolean; maxEntries?: number }>({
        type: "object",
        properties: {
          path: { type: "string", description: `${PATH_HELP}; default "." (the whole folder)` },
          recursive: { type: "boolean", description: "Also list what sub-folders hold" },
          maxEntries: {
            type: "integer",
            minimum: 1,
            maximum: MAX_LIST_ENTRIES,
            description: `At most this many entries (default ${DEFAULT_LIST_ENTRIES})`,
          },
        },
        additionalProperties: false,
      }),
      execute: (input) => listDirectory(base, input, context.signal),
    }),
  [SEARCH_FILES_TOOL_TYPE]: (base, context) =>
    tool({
      description:
        'Finds files of the workspace files folder by name (a glob such as "*.md" or "notes/**/*.txt") and/or by text they contain (ignoring case), giving each matching line.',
      inputSchema: jsonSchema<{ pattern?: string; text?: string; path?: string; maxResults?: number }>({
        type: "object",
        properties: {
          pattern: { type: "string", description: 'A glob over paths; without "/" it matches file names at any depth' },
          text: { type: "string", description: "Text to find inside files, ignoring case" },
          path: { type: "string", description: `The folder to search in; default "." (the whole folder)` },
          maxResults: {
            type: "integer",
            minimum: 1,
            maximum: MAX_SEARCH_RESULTS,
            description: `At most this many matches (default ${DEFAULT_SEARCH_RESULTS})`,
          },
        },
        additionalProperties: false,
      }),
      execute: (input) => searchFiles(base, input, context.signal),
    }),
  [FILE_INFO_TOOL_TYPE]: (base) =>
    tool({
      description:
        "Gives a file's or folder's type, size and times in the workspace files folder, and whether file_read can read it.",
      inputSchema: jsonSchema<{ path: string }>({
        type: "object",
        properties: { path: { type: "string", description: PATH_HELP } },
        required: ["path"],
        additionalProperties: false,
      }),
      execute: ({ path }) => fileInfo(base, path),
    }),
};

const WRITE_TOOLS: Record<string, ToolFactory> = {
  [WRITE_FILE_TOOL_TYPE]: (base) =>
    tool({
      description: `Creates or overwrites a UTF-8 text file in the workspace files folder, making its folders. At most ${base.maxBytes} bytes.`,
      inputSchema: jsonSchema<{ path: string; content: string }>({
        type: "object",
        properties: {
          path: { type: "string", description: PATH_HELP },
          content: { type: "string", description: "The whole new content of the file" },
        },
        required: ["path", "content"],
        additionalProperties: false,
      }),
      execute: (input) => writeTextFile(base, input),
    }),
};

/** The folder's real path, read when an agent starts: every check compares against it. */
async function filesBase(files: WorkspaceFiles, types: string): Promise<FilesBase> {
  if (!files.base)
    throw new BlockExecutionError(`${types}: ${files.unavailableReason ?? "file tools are off"}`, {
      code: "invalid_tool",
    });
  return { realRoot: await realpath(files.base), label: files.label, maxBytes: files.maxBytes };
}

/**
 * An unexpected file-system error (permission denied deep in a folder, ...) carries the host's
 * absolute path in its message: the model gets it with the folder's label in its place.
 */
function withoutHostPaths(definition: Tool, base: FilesBase, configuredRoot: string): Tool {
  const execute = definition.execute;
  if (!execute) return definition;
  return {
    ...definition,
    execute: async (input: unknown, options: unknown) => {
      try {
        return (await execute(input as never, options as never)) as unknown;
      } catch (error) {
        if (isTrellisError(error) || !(error instanceof Error) || error.name === "AbortError") throw error;
        const message = [base.realRoot, configuredRoot].reduce(
          (text, hostPath) => text.split(hostPath).join(base.label),
          error.message,
        );
        throw new FileRefusedError(message);
      }
    },
  } as Tool;
}

function buildTools(
  factories: Record<string, ToolFactory>,
  entries: ToolEntry[],
  base: FilesBase,
  configuredRoot: string,
  context: ToolContext,
): ToolSet {
  const tools: ToolSet = {};
  for (const entry of entries) {
    const name = entry.name ?? entry.type;
    if (name in tools)
      throw new BlockExecutionError(`Two file tools are named "${name}"; give one a different "name"`, {
        code: "invalid_tool",
      });
    tools[name] = withoutHostPaths(factories[entry.type]!(base, context), base, configuredRoot);
  }
  return tools;
}

const typesOf = (entries: ToolEntry[]) => [...new Set(entries.map((entry) => entry.type))].join(", ");

/**
 * File tools over one workspace's files folder (`TRELLIS_FILES_ROOT/<workspace id>`, made by the
 * operator). Reading tools are one provider; `file_write` is another, marked as having side
 * effects, and offered only where the operator turned writes on (TRELLIS_FILES_WRITE).
 */
export function createFileToolProviders(files: WorkspaceFiles): { read: ToolProvider; write: ToolProvider } {
  const read: ToolProvider = {
    tools: [
      {
        type: READ_FILE_TOOL_TYPE,
        label: "Read file",
        description: "Reads a text file of the workspace files folder (set up by the operator).",
      },
      {
        type: LIST_DIRECTORY_TOOL_TYPE,
        label: "List directory",
        description: "Lists a folder of the workspace files folder with types and sizes.",
      },
      {
        type: SEARCH_FILES_TOOL_TYPE,
        label: "Search files",
        description: "Finds files of the workspace files folder by name or content.",
      },
      {
        type: FILE_INFO_TOOL_TYPE,
        label: "File info",
        description: "Type, size and times of a path in the workspace files folder.",
      },
    ],
    async createTools(entries, context) {
      return buildTools(READ_TOOLS, entries, await filesBase(files, typesOf(entries)), files.base!, context);
    },
  };
  const write: ToolProvider = {
    tools: [
      {
        type: WRITE_FILE_TOOL_TYPE,
        label: "Write file",
        description:
          "Creates or overwrites a text file in the workspace files folder (when the operator allows writes).",
      },
    ],
    sideEffects: true,
    async createTools(entries, context) {
      if (!files.writable) {
        throw new BlockExecutionError(
          `${WRITE_FILE_TOOL_TYPE}: writing files is off for this workspace; the operator turns it on with ${FILES_WRITE_ENV}=on (or a list of workspace ids)`,
          { code: "invalid_tool" },
        );
      }
      return buildTools(WRITE_TOOLS, entries, await filesBase(files, WRITE_FILE_TOOL_TYPE), files.base!, context);
    },
  };
  return { read, write };
}

/** Which file tool types a workspace can use now, for the tool catalog: none without a folder, no write without permission. */
export function availableFileToolTypes(files: WorkspaceFiles): Set<string> {
  if (!files.base) return new Set();
  const types = new Set(Object.keys(READ_TOOLS));
  if (files.writable) types.add(WRITE_FILE_TOOL_TYPE);
  return types;
}

export const FILE_TOOL_TYPES: ReadonlySet<string> = new Set([...Object.keys(READ_TOOLS), ...Object.keys(WRITE_TOOLS)]);
