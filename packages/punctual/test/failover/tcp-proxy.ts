// The one address the failover test's instances reach PostgreSQL through: a TCP proxy in the test process
// that forwards every connection to the current server. `repoint` sends new connections to another server
// and cuts the open ones, as a failover manager moving a virtual IP does. It never reads the bytes.

import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class TcpProxy {
  #target: number;
  readonly #open = new Set<Socket>();
  readonly #server: Server;

  constructor(targetPort: number) {
    this.#target = targetPort;
    this.#server = createServer((client) => {
      const upstream = createConnection({ host: '127.0.0.1', port: this.#target });
      this.#open.add(client);
      this.#open.add(upstream);
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.#open.delete(client);
        this.#open.delete(upstream);
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  /** Listens on a free loopback port and returns it. */
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return (this.#server.address() as { port: number }).port;
  }

  /** New connections go to `port`; every open one is cut. */
  repoint(port: number): void {
    this.#target = port;
    for (const s of this.#open) s.destroy();
    this.#open.clear();
  }

  async close(): Promise<void> {
    for (const s of this.#open) s.destroy();
    await new Promise((r) => this.#server.close(r));
  }
}
