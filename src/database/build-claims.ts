/**
 * Memory claimed by the full builds running on this node, so that two builds do not each take the
 * room one of them measured (rebuilds.ts): the databases of one process, and with `workers` the
 * processes of one node — which all hear of the same import at once and would all start its
 * compaction together (N × ~1.4 GB at 1M). One ledger (ClaimBook) per node: this process's own, or
 * in a cluster worker the primary's, asked over the cluster's IPC channel. A worker's claims go with
 * it when it exits.
 */
import cluster, { type Worker } from 'node:cluster';

/** What a build asks: its need and the room it measured, in bytes; `force`: taken whatever the room (a build that cannot wait). */
export interface ClaimAsk {
  need: number;
  room: number;
  force: boolean;
}

/** The claims of the builds running on a node. */
export class ClaimBook {
  private readonly claims = new Map<string, number>();

  /** Granted when the need and every other running build's need fit the room (or forced). */
  claim(owner: string, id: number, ask: ClaimAsk): boolean {
    if (!ask.force && ask.need + this.claimed > ask.room) return false;
    this.claims.set(`${owner}/${id}`, ask.need);
    return true;
  }

  release(owner: string, id: number): void {
    this.claims.delete(`${owner}/${id}`);
  }

  /** Everything `owner` held (a worker process that exited). */
  drop(owner: string): void {
    for (const k of [...this.claims.keys()]) if (k.startsWith(`${owner}/`)) this.claims.delete(k);
  }

  get claimed(): number {
    let n = 0;
    for (const v of this.claims.values()) n += v;
    return n;
  }
}

const CLAIM = 'contact-search:build-claim';
const GRANT = 'contact-search:build-grant';
const RELEASE = 'contact-search:build-release';

interface ClaimMessage extends ClaimAsk {
  type: typeof CLAIM;
  id: number;
}
interface GrantMessage {
  type: typeof GRANT;
  id: number;
  granted: boolean;
}
interface ReleaseMessage {
  type: typeof RELEASE;
  id: number;
}

const local = new ClaimBook();
/** How long a worker waits for the primary's answer before deciding alone. */
const ANSWER_MS = 5_000;
let nextId = 1;
const waiting = new Map<number, (granted: boolean) => void>();
let listening = false;

/**
 * A claim of `ask.need` bytes; its release function when granted, else undefined. Local in a
 * process of its own, the primary's in a cluster worker.
 */
export async function claimRoom(ask: ClaimAsk): Promise<(() => void) | undefined> {
  const id = nextId++;
  if (!cluster.isWorker || !process.send) {
    return local.claim('self', id, ask) ? () => local.release('self', id) : undefined;
  }
  if (!listening) {
    listening = true;
    process.on('message', (m: GrantMessage) => {
      if (m?.type !== GRANT) return;
      waiting.get(m.id)?.(m.granted);
      waiting.delete(m.id);
    });
  }
  const granted = await new Promise<boolean>((done) => {
    // A primary that does not keep the ledger (not this service's main.ts): this process decides.
    const alone = setTimeout(() => {
      waiting.delete(id);
      // Should the primary grant it after all, this (sent after the claim, so read after it) takes it back.
      process.send?.({ type: RELEASE, id } satisfies ReleaseMessage);
      done(ask.force || ask.need <= ask.room);
    }, ANSWER_MS);
    waiting.set(id, (granted) => {
      clearTimeout(alone);
      done(granted);
    });
    process.send!({ type: CLAIM, id, ...ask } satisfies ClaimMessage);
  });
  if (!granted) return undefined;
  return () => process.send?.({ type: RELEASE, id } satisfies ReleaseMessage);
}

/** The primary's side: one ledger for its workers' builds. */
export function serveBuildClaims(book = new ClaimBook()): ClaimBook {
  cluster.on('message', (w: Worker, m: ClaimMessage | ReleaseMessage) => {
    if (m?.type === CLAIM) {
      const granted = book.claim(String(w.id), m.id, m);
      w.send({ type: GRANT, id: m.id, granted } satisfies GrantMessage);
    } else if (m?.type === RELEASE) book.release(String(w.id), m.id);
  });
  cluster.on('exit', (w) => book.drop(String(w.id)));
  return book;
}
