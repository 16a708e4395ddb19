import "server-only";
import { RequestError } from "./errors";

/**
 * Which names this server answers to (the Host check) and which origins may send it changes (the
 * Origin check), from TRELLIS_ALLOWED_HOSTS and TRELLIS_PUBLIC_URL (docs/CONTRACT.md section 4).
 */

/** A host and port as a Host header or an origin names them: lower case, IPv6 in brackets. */
export interface Authority {
  hostname: string;
  /** Null when none was written: the scheme's default port (80 or 443). */
  port: string | null;
}

/** An allowed host: a configured entry (any port when it names none) or the public URL's. */
interface HostPattern {
  hostname: string;
  /** Null: any port. */
  port: string | null;
}

export interface HostPolicy {
  /** Whether a request whose Host is this may be served at all (DNS rebinding). */
  answersTo(host: Authority): boolean;
  /** Whether a page at this origin may send changes to a request addressed to `host`. */
  acceptsOrigin(origin: Authority, host: Authority): boolean;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);
const DEFAULT_PORTS = new Set(["80", "443"]);

/** Host header text (`name`, `name:port`, `[v6]:port`) as an Authority; null when it is not one. */
export function parseAuthority(text: string): Authority | null {
  // Only a host and a port: no user info, path, query, fragment or spaces that URL would accept.
  if (!text || /[\s@/\\?#%]/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(`http://${text}`);
  } catch {
    return null;
  }
  if (!url.hostname) return null;
  // URL drops a written :80 (http's default), which is what a missing port means here too.
  return { hostname: url.hostname.replace(/\.$/, ""), port: url.port || null };
}

/** An Origin header's scheme, host and effective port; null for `null`, opaque or non-http origins. */
export function parseOrigin(text: string): Authority | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) return null;
  return { hostname: url.hostname.replace(/\.$/, ""), port: url.port || (url.protocol === "https:" ? "443" : "80") };
}

/** Ports agree, reading a missing one as the scheme's default (80 or 443). */
function samePort(a: string | null, b: string | null): boolean {
  return (
    a === b || (a === null && b !== null && DEFAULT_PORTS.has(b)) || (b === null && a !== null && DEFAULT_PORTS.has(a))
  );
}

function matches(pattern: HostPattern, authority: Authority): boolean {
  return pattern.hostname === authority.hostname && (pattern.port === null || samePort(pattern.port, authority.port));
}

/**
 * An IP address written as the host cannot be the work of DNS rebinding: the browser names the
 * host it resolved, and an attacker's page is at the attacker's name.
 */
function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

function invalid(message: string): RequestError {
  return new RequestError("invalid_configuration", message);
}

/** TRELLIS_ALLOWED_HOSTS: comma-separated `host[:port]`, an entry without a port allowing any. */
export function parseAllowedHosts(text: string | undefined): HostPattern[] {
  return (text ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry.includes("://"))
        throw invalid(`TRELLIS_ALLOWED_HOSTS entry "${entry}" is a URL; write the host[:port] only.`);
      const authority = parseAuthority(entry);
      if (!authority) throw invalid(`TRELLIS_ALLOWED_HOSTS entry "${entry}" is not a host[:port].`);
      return { hostname: authority.hostname, port: authority.port };
    });
}

/** TRELLIS_PUBLIC_URL: the URL users reach Trellis at; its host and (effective) port are allowed. */
export function parsePublicUrl(text: string | undefined): HostPattern | null {
  if (!text?.trim()) return null;
  const origin = parseOrigin(text.trim());
  if (!origin) throw invalid(`TRELLIS_PUBLIC_URL "${text}" is not an http or https URL.`);
  return origin;
}

export function createHostPolicy(config: { allowedHosts?: string; publicUrl?: string }): HostPolicy {
  const configured = [
    ...parseAllowedHosts(config.allowedHosts),
    ...[parsePublicUrl(config.publicUrl)].filter((pattern) => pattern !== null),
  ];
  return {
    answersTo: (host) =>
      LOOPBACK_NAMES.has(host.hostname) ||
      isIpLiteral(host.hostname) ||
      configured.some((pattern) => matches(pattern, host)),
    acceptsOrigin: (origin, host) =>
      (origin.hostname === host.hostname && samePort(origin.port, host.port)) ||
      configured.some((pattern) => matches(pattern, origin)),
  };
}

let cached: { key: string; policy: HostPolicy } | undefined;

/** The policy of this process's environment, parsed again only when the variables change. */
export function hostPolicyFromEnvironment(env: Record<string, string | undefined> = process.env): HostPolicy {
  const config = { allowedHosts: env.TRELLIS_ALLOWED_HOSTS, publicUrl: env.TRELLIS_PUBLIC_URL };
  const key = JSON.stringify(config);
  if (cached?.key !== key) cached = { key, policy: createHostPolicy(config) };
  return cached.policy;
}
