/**
 * A TCP proxy in front of PostgreSQL that a test can cut: every connection through it is dropped
 * and new ones are refused (PostgreSQL away for this node only, without stopping the server the
 * other tests on the machine use), or the next COMMIT is let through and its answer lost.
 */
import net from 'node:net';

export interface PgProxy {
  url: string;
  /** Drops every connection and refuses new ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  /** The next COMMIT reaches PostgreSQL (and commits); its answer is dropped with the connection. */
  loseNextCommitAnswer(): void;
  /** Nothing passes any more, in either direction, and no error is sent (a cut network); `flow` lets it through again. */
  hang(): void;
  flow(): void;
  close(): Promise<void>;
}

const COMMIT = Buffer.from('COMMIT\0');

export async function pgProxy(
  target: { host: string; port: number },
  database: string,
): Promise<PgProxy> {
  const sockets = new Set<net.Socket>();
  let loseCommit = false;
  let hung = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      if (hung) s.pause();
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
      s.on('error', () => undefined);
    }
    let commitSent = false;
    client.on('data', (d: Buffer) => {
      if (loseCommit && d.includes(COMMIT)) {
        loseCommit = false;
        commitSent = true;
      }
      upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (commitSent) {
        client.destroy();
        return;
      } // PostgreSQL answered: it committed
      client.write(d);
    });
  });
  const listen = (port: number) =>
    new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const drop = async () => {
    await new Promise<void>((done) => {
      server.close(() => done());
      for (const s of sockets) s.destroy();
    });
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/${database}`,
    cut: drop,
    restore: () => listen(port),
    loseNextCommitAnswer() {
      loseCommit = true;
    },
    hang() {
      hung = true;
      for (const s of sockets) s.pause();
    },
    flow() {
      hung = false;
      for (const s of sockets) s.resume();
    },
    close: () => (server.listening ? drop() : Promise.resolve()),
  };
}
