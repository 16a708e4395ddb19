import { describe, expect, it } from "vitest";
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
    for (const name of ["DATABASE_URL", "TRELLIS_SECRET_KEY", "PATH", "OPENAI_API_KEY", "OPENAI_BASE_URL", "TRELLIS_WORKFLOW_ENV", "UNSET"]) {
      expect(workflowEnv(name), name).toBeUndefined();
    }
  });

  it("prefers a stored secret over an allowed process variable of the same name", () => {
    const { workflowEnv, masked } = createRunEnvironment(new Map([["REGION", "stored-region"]]), processEnv);
    expect(workflowEnv("REGION")).toBe("stored-region");
    expect(masked.get("REGION")).toBe("stored-region");
  });

  it("gives the provider layer stored secrets first, then the process's provider variables only", () => {
    const { providerEnv } = createRunEnvironment(new Map([["ANTHROPIC_API_KEY", "sk-ant-stored"]]), processEnv);
    expect(providerEnv("ANTHROPIC_API_KEY")).toBe("sk-ant-stored");
    expect(providerEnv("OPENAI_API_KEY")).toBe("sk-process-key");
    expect(providerEnv("OPENAI_BASE_URL")).toBe("http://127.0.0.1:9999/v1");
    expect(providerEnv("DATABASE_URL")).toBeUndefined();
    expect(providerEnv("REGION")).toBeUndefined();
  });

  it("never sends the operator's key to a base URL the workspace stored: a provider's settings come from one place", () => {
    const urlOnly = createRunEnvironment(new Map([["OPENAI_BASE_URL", "https://attacker.example/v1"]]), processEnv).providerEnv;
    expect(urlOnly("OPENAI_BASE_URL")).toBe("https://attacker.example/v1");
    expect(urlOnly("OPENAI_API_KEY")).toBeUndefined();
    expect(urlOnly("ANTHROPIC_API_KEY")).toBe("sk-ant-process");
    // The workspace's own key goes to the provider's default address, not to the operator's base URL.
    const keyOnly = createRunEnvironment(new Map([["OPENAI_API_KEY", "sk-workspace"]]), processEnv).providerEnv;
    expect(keyOnly("OPENAI_API_KEY")).toBe("sk-workspace");
    expect(keyOnly("OPENAI_BASE_URL")).toBeUndefined();
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
