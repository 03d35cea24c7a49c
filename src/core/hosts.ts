// Hosts that are this machine: a request to one reaches a server running here, and nothing leaves the machine.

/** `localhost`, `*.localhost`, `127.0.0.0/8`, `::1`, `0.0.0.0`, with or without a port or brackets. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .toLowerCase()
    .replace(/^\[(.*)\](:\d+)?$/, "$1")
    .replace(/^([^:]+):\d+$/, "$1")
    .replace(/\.$/, "");
  return (
    h === "localhost" ||
    h.endsWith(".localhost") ||
    h === "ip6-localhost" ||
    h === "::1" ||
    h === "0:0:0:0:0:0:0:1" ||
    h === "0.0.0.0" ||
    /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(h)
  );
}

/** The action a request to these hosts is, at every seam: `http.loopback` when all are this machine's. */
export function httpActionName(hosts: readonly string[]): "http.loopback" | "http.request" {
  return hosts.length > 0 && hosts.every(isLoopbackHost) ? "http.loopback" : "http.request";
}
