// A TCP proxy for tests that need a database to stop answering: it forwards connections to a target address
// until `cut()`, which drops every open connection and resets every new one, and forwards again after
// `restore()`. It never touches the service behind it (the shared PostgreSQL keeps running).

import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export class TcpProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #down = false;
  /** Connections refused while cut. */
  refused = 0;

  private constructor(
    readonly targetHost: string,
    readonly targetPort: number,
  ) {
    this.#server = createServer((client) => this.#accept(client));
  }

  /** A proxy listening on a free loopback port, forwarding to host:port. */
  static async start(host: string, port: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(host, port);
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** A proxy in front of the database of a postgres:// URL, and the URL that goes through it. */
  static async forUrl(url: string): Promise<{ proxy: TcpProxy; url: string }> {
    const u = new URL(url);
    const proxy = await TcpProxy.start(u.hostname, Number(u.port || 5432));
    u.host = `127.0.0.1:${proxy.port}`;
    return { proxy, url: u.toString() };
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  get isCut(): boolean {
    return this.#down;
  }

  /** The database stops answering: open connections drop, new ones are reset. */
  cut(): void {
    this.#down = true;
    for (const s of this.#sockets) s.destroy();
    this.#sockets.clear();
  }

  restore(): void {
    this.#down = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: Socket): void {
    if (this.#down) {
      this.refused++;
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    for (const s of [client, upstream]) {
      this.#sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        this.#sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
