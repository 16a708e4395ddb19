import { describe, expect, it } from "vitest";
import { createModelRegistry } from "@/providers";
import { createRunEnvironment, workflowEnvAllowList, workflowEnvNames } from "./run-environment";

const PROCESS: Record<string, string> = {
  DATABASE_URL: "postgres://user:password@db/trellis",
  TRELLIS_SECRET_KEY: "server-key-0123456789",
  PATH: "/usr/bin",
  OPENAI_API_KEY: "sk-process-key",
  OPENAI_BASE_URL: "http://127.0.0.1:9999/v1",
  ANTHROPIC_API_KEY: "sk-ant-process",
  REGION: "eu-west-1",
  TRELLIS_WORKFLOW_ENV: " REGION ,UNSET, bad-name,,REGION",
};
const processEnv = (name: string) => PROCESS[name];

describe("a run's environment", () => {
  it("reads TRELLIS_WORKFLOW_ENV as a list of names, ignoring blanks, duplicates and malformed entries", () => {
    expect(workflowEnvAllowList(processEnv)).toEqual(["REGION", "UNSET"]);
    expect(workflowEnvAllowList(() => undefined)).toEqual([]);
  });

  it("lets {{NAME}} read stored secrets, then only the allowed process variables", () => {
    const { workflowEnv } = createRunEnvironment(new Map([["SUPPORT_TOKEN", "stored-token"]]), processEnv);
    expect(workflowEnv("SUPPORT_TOKEN")).toBe("stored-token");
    expect(workflowEnv("REGION")).toBe("eu-west-1");
    for (const name of [
      "DATABASE_URL",
      "TRELLIS_SECRET_KEY",
      "PATH",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "TRELLIS_WORKFLOW_ENV",
      "UNSET",
    ]) {
      expect(workflowEnv(name), name).toBeUndefined();
    }
  });

  it("prefers a stored secret over an allowed process variable of the same name", () => {
    const { workflowEnv, masked } = createRunEnvironment(new Map([["REGION", "stored-region"]]), processEnv);
    expect(workflowEnv("REGION")).toBe("stored-region");
    expect(masked.get("REGION")).toBe("stored-region");
  });

  it("gives the provider layer the process's provider variables as the operator's, and the stored provider secrets as the workspace's", () => {
    const { providerEnv } = createRunEnvironment(
      new Map([
        ["ANTHROPIC_API_KEY", "sk-ant-stored"],
        ["SUPPORT_TOKEN", "t"],
      ]),
      processEnv,
    );
    expect(providerEnv.operator("OPENAI_API_KEY")).toBe("sk-process-key");
    expect(providerEnv.operator("OPENAI_BASE_URL")).toBe("http://127.0.0.1:9999/v1");
    expect(providerEnv.operator("DATABASE_URL")).toBeUndefined();
    expect(providerEnv.operator("REGION")).toBeUndefined();
    expect(providerEnv.workspace?.("ANTHROPIC_API_KEY")).toBe("sk-ant-stored");
    expect(providerEnv.workspace?.("SUPPORT_TOKEN")).toBeUndefined();
  });

  it("never lets a stored base URL become a provider's server: the model registry refuses it by name", () => {
    const { providerEnv } = createRunEnvironment(
      new Map([["OPENAI_BASE_URL", "https://attacker.example/v1"]]),
      processEnv,
    );
    expect(providerEnv.operator("OPENAI_BASE_URL")).toBe("http://127.0.0.1:9999/v1");
    expect(() => createModelRegistry({ env: providerEnv }).resolve("openai/gpt-4o-mini")).toThrow(
      /stores a secret named OPENAI_BASE_URL, but a provider's server is the operator's/,
    );
    // Another provider of the same workspace is unaffected.
    expect(createModelRegistry({ env: providerEnv }).resolve("anthropic/claude-sonnet-4-5").provider).toBe("anthropic");
  });

  it("sends a workspace's own key to the operator's server for that provider", () => {
    const { providerEnv } = createRunEnvironment(new Map([["OPENAI_API_KEY", "sk-workspace-0123456789"]]), processEnv);
    expect(createModelRegistry({ env: providerEnv }).resolve("openai/gpt-4o-mini").secrets).toEqual([
      "sk-workspace-0123456789",
    ]);
  });

  it("masks every value the run could show: stored secrets, allowed variables and the process's provider keys", () => {
    const { masked } = createRunEnvironment(new Map([["SUPPORT_TOKEN", "stored-token"]]), processEnv);
    expect(Object.fromEntries(masked)).toEqual({
      SUPPORT_TOKEN: "stored-token",
      REGION: "eu-west-1",
      OPENAI_API_KEY: "sk-process-key",
      ANTHROPIC_API_KEY: "sk-ant-process",
    });
  });

  it("offers for completion exactly the names {{NAME}} can read", () => {
    expect(workflowEnvNames(["SUPPORT_TOKEN", "REGION"], processEnv)).toEqual(["REGION", "SUPPORT_TOKEN"]);
    expect(workflowEnvNames([], () => undefined)).toEqual([]);
  });
});
