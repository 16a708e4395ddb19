"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plug } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";
import { api, MCP_TOOL_DESCRIPTION_MAX_LENGTH, type McpPublication, type McpPublicationRequest } from "@/contract";
import { useCanEdit } from "@/components/auth/workspace-context";
import { CopyButton } from "@/components/ui/copy-button";
import { exampleInput } from "@/components/ui/shell-example";
import { mcpServersConfig, mcpTypeScriptExample } from "./mcp-client-config";
import { Snippet } from "./snippet";
import { startInputs } from "./start-inputs";
import { useDeployments } from "./use-deployments";

const publicationKey = (workflowId: string) => ["workflow", workflowId, "mcp"] as const;

function PublicationForm({
  workflowId,
  current,
  editable,
}: {
  workflowId: string;
  current: McpPublication;
  editable: boolean;
}) {
  const queryClient = useQueryClient();
  const [toolName, setToolName] = useState(current.toolName);
  const [description, setDescription] = useState(current.description);
  const save = useMutation({
    mutationFn: (request: McpPublicationRequest) => api.mcp.publish(workflowId, request),
    onSuccess: (saved) => queryClient.setQueryData(publicationKey(workflowId), saved),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ enabled: current.enabled, toolName, description });
  };
  return (
    <form onSubmit={submit} className="space-y-3">
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          role="switch"
          aria-checked={current.enabled}
          checked={current.enabled}
          disabled={!editable || save.isPending}
          onChange={(event) => save.mutate({ enabled: event.target.checked, toolName, description })}
          data-testid="mcp-enabled"
        />
        Publish as MCP tool {current.enabled ? "(on)" : "(off)"}
      </label>
      <label className="block text-sm">
        <span className="text-slate-700">Tool name</span>
        <input
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5 font-mono"
          value={toolName}
          maxLength={128}
          disabled={!editable}
          spellCheck={false}
          onChange={(event) => setToolName(event.target.value)}
          data-testid="mcp-tool-name"
        />
        <span className="text-xs text-slate-500">Letters, digits, _ - and . only; unique in the workspace.</span>
      </label>
      <label className="block text-sm">
        <span className="text-slate-700">Description</span>
        <textarea
          className="mt-1 w-full rounded border border-slate-300 px-2 py-1.5"
          rows={3}
          value={description}
          maxLength={MCP_TOOL_DESCRIPTION_MAX_LENGTH}
          disabled={!editable}
          placeholder="What the tool does, for the model choosing it (empty: the workflow's description)"
          onChange={(event) => setDescription(event.target.value)}
          data-testid="mcp-description"
        />
      </label>
      {editable && (
        <button type="submit" className="btn-primary" disabled={save.isPending} data-testid="mcp-save">
          Save
        </button>
      )}
      {save.isSuccess && !save.isPending && (
        <p className="text-xs text-emerald-700" data-testid="mcp-saved">
          Saved.
        </p>
      )}
      {save.error && (
        <p role="alert" className="text-sm text-red-600" data-testid="mcp-error">
          {save.error.message}
        </p>
      )}
    </form>
  );
}

/** How to reach the tools: the endpoint, a client configuration and a program, with the tool's example arguments. */
function ClientSetup({ workflowId, publication }: { workflowId: string; publication: McpPublication }) {
  const { active } = useDeployments(workflowId);
  const deployed = useQuery({
    queryKey: ["deployment", workflowId, active?.id],
    queryFn: () => api.deployments.get(workflowId, active!.id),
    enabled: active !== undefined,
  });
  const args = useMemo(
    () => exampleInput(startInputs(deployed.data?.document).filter((input) => input.default === undefined)),
    [deployed.data],
  );
  return (
    <section className="space-y-2 text-sm" aria-label="Connect a client">
      <h3 className="font-semibold">Endpoint</h3>
      <div className="flex items-center gap-2">
        <code className="flex-1 truncate rounded bg-slate-100 px-2 py-1 text-xs" data-testid="mcp-endpoint">
          {publication.endpoint}
        </code>
        <CopyButton text={publication.endpoint} testId="mcp-endpoint-copy" />
      </div>
      <p className="text-xs text-slate-500">
        MCP over Streamable HTTP. Clients send an API key of this workspace as <code>Authorization: Bearer</code> (make
        one under API keys in the user menu); the server lists every published, deployed workflow of the workspace, and
        each call runs the active deployment.
      </p>
      <Snippet
        title="Client configuration (mcpServers)"
        text={mcpServersConfig(publication.endpoint)}
        testId="mcp-config"
      />
      <Snippet
        title="TypeScript (MCP SDK)"
        text={mcpTypeScriptExample(publication.endpoint, publication.toolName, args)}
        testId="mcp-typescript"
      />
    </section>
  );
}

/**
 * Publishing the workflow as a tool of the workspace's MCP server: on or off, its tool name and
 * description, and how a client connects. The tool runs the active deployment, so until there is
 * one the tab says to deploy first (publishing is allowed; the tool is listed once deployed).
 */
export function McpTab({ workflowId }: { workflowId: string }) {
  const editable = useCanEdit();
  const publication = useQuery({
    queryKey: publicationKey(workflowId),
    queryFn: () => api.mcp.publication(workflowId),
  });
  return (
    <section
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
      aria-label="MCP tool"
      data-testid="mcp-panel"
    >
      <h2 className="flex items-center gap-2 text-sm font-semibold">
        <Plug size={16} aria-hidden /> MCP tool
      </h2>
      <p className="text-xs text-slate-500">
        Assistants and agents that speak the Model Context Protocol can call this workflow as a tool: its start inputs
        are the tool&apos;s parameters and its output the result.
      </p>
      {publication.isPending && <p className="text-sm text-slate-400">Loading…</p>}
      {publication.error && (
        <p role="alert" className="text-sm text-red-600">
          {publication.error.message}
        </p>
      )}
      {publication.data && (
        <>
          {!publication.data.deployed && (
            <p
              className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
              data-testid="mcp-not-deployed"
            >
              This workflow is not deployed yet. Deploy it first: the tool runs the active deployment, and it is not
              listed until there is one.
            </p>
          )}
          {/* Keyed by what is stored, so a saved name or description starts the form afresh. */}
          <PublicationForm
            key={`${publication.data.published}:${publication.data.toolName}:${publication.data.description}`}
            workflowId={workflowId}
            current={publication.data}
            editable={editable}
          />
          {publication.data.published && publication.data.enabled && (
            <ClientSetup workflowId={workflowId} publication={publication.data} />
          )}
        </>
      )}
    </section>
  );
}
