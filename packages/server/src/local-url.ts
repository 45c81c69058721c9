// localUrl: the URL of a server listening on a host and port, as a browser on this machine reaches it (the
// default public URL, the OpenAPI document's server, doctor's probe). Pure: it must never look the address
// up.

/** The URL of a server listening on host:port, as a browser on this machine would reach it. */
export function localUrl(host: string, port: number): string {
  const reachable =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${port}`;
}
