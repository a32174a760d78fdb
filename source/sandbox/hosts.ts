/**
 * Host patterns of `sandbox.network.allowedDomains` / `deniedDomains`:
 * `host` (any port), `*.host` (its subdomains, not itself), `host:port`, `*`.
 */

export function hostMatches(pattern: string, host: string, port: number): boolean {
  const colon = pattern.lastIndexOf(":");
  const hasPort = colon > 0 && /^\d+$/.test(pattern.slice(colon + 1)) && !pattern.endsWith("]");
  const name = (hasPort ? pattern.slice(0, colon) : pattern).replace(/^\[|\]$/g, "");
  if (hasPort && Number(pattern.slice(colon + 1)) !== port) return false;
  if (name === "*") return true;
  if (name.startsWith("*.")) return host.endsWith(name.slice(1)) && host.length > name.length - 1;
  return host === name;
}

export function hostAllowed(
  host: string,
  port: number,
  allow: readonly string[],
  deny: readonly string[],
): boolean {
  const h = host.toLowerCase();
  if (deny.some((pattern) => hostMatches(pattern, h, port))) return false;
  return allow.some((pattern) => hostMatches(pattern, h, port));
}

/** Ports of `127.0.0.1:PORT` / `localhost:PORT` entries: reachable inside as the same port. */
export function localPorts(allow: readonly string[]): number[] {
  const ports = new Set<number>();
  for (const pattern of allow) {
    const match = /^(127\.0\.0\.1|localhost):(\d{1,5})$/.exec(pattern);
    const port = match ? Number(match[2]) : 0;
    if (port > 0 && port < 65536) ports.add(port);
  }
  return [...ports];
}
