// Throwaway PostgreSQL clusters for the failover test: a primary and a synchronous streaming-replication
// standby made with the machine's PostgreSQL binaries (initdb, pg_basebackup, pg_ctl) on loopback ports,
// data under a temporary folder owned by the `postgres` OS user (initdb refuses root). It never touches the
// machine's own cluster; `remove` stops both and deletes the folder.

import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = process.env.PUNCTUAL_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as the `postgres` OS user when this process is root. */
function pgBin(name: string, args: string[]): string {
  const [cmd, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(BIN, name), ...args]]
    : [join(BIN, name), args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A free loopback port (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

export interface Node {
  name: string;
  dir: string;
  port: number;
}

export class PgPair {
  readonly root: string;
  primary!: Node;
  standby!: Node;

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), 'punctual-failover-'));
    if (asRoot) {
      const { uid, gid } = statSync('/var/lib/postgresql');
      chownSync(this.root, uid, gid);
    }
  }

  #start(node: Node): void {
    pgBin('pg_ctl', [
      '-D',
      node.dir,
      '-l',
      join(this.root, `${node.name}.log`),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${node.port} -k ${this.root} -c listen_addresses=127.0.0.1`,
      'start',
    ]);
  }

  /** initdb + start the primary, pg_basebackup + start the standby, wait until it is synchronous. */
  async create(): Promise<void> {
    this.primary = { name: 'primary', dir: join(this.root, 'primary'), port: await freePort() };
    this.standby = { name: 'standby', dir: join(this.root, 'standby'), port: await freePort() };
    pgBin('initdb', ['-D', this.primary.dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    appendFileSync(
      join(this.primary.dir, 'postgresql.conf'),
      [
        'wal_level = replica',
        'max_wal_senders = 5',
        "synchronous_standby_names = 'standby'",
        'synchronous_commit = on',
        'hot_standby = on',
        'max_connections = 200',
        'fsync = off',
        '',
      ].join('\n'),
    );
    this.#start(this.primary);
    pgBin('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(this.primary.port),
      '-U',
      'postgres',
      '-D',
      this.standby.dir,
      '-R',
      '-X',
      'stream',
    ]);
    // The application name is what synchronous_standby_names matches; this line wins over -R's.
    appendFileSync(
      join(this.standby.dir, 'postgresql.auto.conf'),
      `primary_conninfo = 'host=127.0.0.1 port=${this.primary.port} user=postgres application_name=standby'\n`,
    );
    this.#start(this.standby);
    for (let i = 0; ; i++) {
      const out = this.psql(
        this.primary,
        "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'",
      );
      if (out.trim() === 'sync') return;
      if (i > 100) throw new Error(`the standby did not become synchronous (${out})`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  psql(node: Node, sql: string): string {
    return pgBin('psql', ['-h', '127.0.0.1', '-p', String(node.port), '-U', 'postgres', '-At', '-c', sql]);
  }

  /** Stops the primary as a crash would (no checkpoint, connections cut). */
  crashPrimary(): void {
    pgBin('pg_ctl', ['-D', this.primary.dir, '-m', 'immediate', 'stop']);
  }

  /**
   * Promotes the standby and waits until it accepts writes. It inherited the primary's
   * synchronous_standby_names, and no standby follows it yet: as a failover manager does, it stops waiting
   * for one, or every commit would wait forever (it runs alone, so asynchronously, until a new standby joins).
   */
  promoteStandby(): void {
    pgBin('pg_ctl', ['-D', this.standby.dir, '-w', 'promote']);
    this.psql(this.standby, "ALTER SYSTEM SET synchronous_standby_names = ''");
    this.psql(this.standby, 'SELECT pg_reload_conf()');
  }

  /** Copies the servers' logs into `dir` (kept when the test fails). */
  keepLogs(dir: string): void {
    for (const name of ['primary', 'standby']) {
      try {
        copyFileSync(join(this.root, `${name}.log`), join(dir, `${name}.log`));
      } catch {
        // never started
      }
    }
  }

  /** Stops whatever runs and deletes the folder. */
  remove(): void {
    for (const node of [this.primary, this.standby]) {
      if (!node) continue;
      try {
        pgBin('pg_ctl', ['-D', node.dir, '-m', 'immediate', 'stop']);
      } catch {
        // not running
      }
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}
