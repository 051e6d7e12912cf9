/**
 * Writer-built segments (issue 25: an import's contacts searchable within seconds of its commit). The
 * import CLI is a process of its own: a running server hears of its commit through the change feed
 * and, for a big change, builds a segment from the stored rows — seconds of decoding and tokenising
 * after the commit (7–8 s for 100,000 contacts on a 2-core machine). The CLI holds those contacts
 * already, while it writes them, and has a core of its own: so it tokenises them on a worker as it
 * goes (at the build's lower priority), builds the segment when the last row is written, writes it
 * beside the store as `<file>.segment-<nonce>` (the snapshot's image format: CRC, header) and only
 * then commits, its last feed row naming the nonce (FeedRecorder.segment). A server whose feed read
 * is exactly that transaction (foldFeed) loads the file on a worker and stages it, instead of
 * building; anything else — another writer's rows in the read, other index code or tuning, another
 * store, a count that differs, a bad CRC, no file — is a build from the store as before. Every
 * server process of the store reads the same file (workers), so none deletes it on use: files older
 * than WRITER_SEGMENT.keepMs are deleted by the next one to open the store or meet a segment.
 * SQLite only (the file sits beside the database file).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Contact } from '../fields/contact.ts';
import { TUNING } from '../search/heads.ts';
import { imageHeaderOfFile } from '../search/index/image-file.ts';
import { indexCodeVersion } from '../search/index/version.ts';
import { TABLE_TUNING } from '../search/table/dictionary.ts';
import type { ImportTee } from '../store/import-target.ts';
import { FEED_LIST_BIG, type ContactStore, type StoreTransaction } from '../store/store.ts';
import { FIELDS } from '../fields/schema.ts';
import { snapshotOf } from './snapshot.ts';
import { loadInWorker, segmentFromBatches, type Done } from './worker-build.ts';

/** Bumped when the meta's meaning changes. */
const SEGMENT_VERSION = 1;

export const WRITER_SEGMENT = {
  /**
   * A write of fewer contacts builds none: a server indexes a change this small (or builds a small
   * database whole) in about a second itself, and a worker's start costs ~0.5 s of a core.
   */
  min: 20_000,
  /**
   * The longest the commit waits for the segment after the last row (the write lock is held
   * meanwhile): then it commits without, the worker stopped, and the server builds as before.
   */
  waitMs: 30_000,
  /**
   * How much nicer than the CLI's own thread its segment worker runs (Linux, per thread; at most
   * 19): the servers answering beside it come first, and it still has the core the CLI's thread
   * leaves while it waits on SQLite; a server's own import's worker runs at BUILD_WORKER.nice.
   */
  nice: 19,
  /** How long a segment file is kept for the store's readers (sweepWriterSegments). */
  keepMs: 10 * 60_000,
};

export interface SegmentMeta {
  segment: number;
  /** indexCodeVersion() of the writer's code: a server of other code builds instead. */
  code: string;
  /** The database file's absolute path. */
  store: string;
  nonce: string;
  /** Contacts in the image (the write's distinct ids); set by the worker, with writtenAt. */
  contacts: number;
  /** The thresholds it was built with (tests lower them): a server with others builds instead. */
  tuning: typeof TUNING;
  table: typeof TABLE_TUNING;
  writtenAt: string;
}

/**
 * Columns a segment starts buffered (IndexLoader's `unique`) as the server's index holds them, so
 * the staging copies them whole (a column held otherwise is interned value by value there): as the
 * index snapshot beside the store says, else as a big database's are (values of their own per contact).
 */
function uniqueColumns(store: ContactStore): boolean[] {
  try {
    const snap = snapshotOf(store);
    if (!snap) throw new Error('no snapshot');
    const columns = imageHeaderOfFile(snap.file).columns;
    if (columns.length === FIELDS.length && columns.every((c, k) => c.field === FIELDS[k].name))
      return columns.map((c) => !c.mapped);
  } catch {
    /* no snapshot, or not readable: the usual columns */
  }
  return FIELDS.map((f) => UNIQUE.has(f.name));
}
const UNIQUE = new Set(['ContactId', 'DisplayName', 'Emails', 'Phones', 'CreatedAt', 'UpdatedAt']);

const PREFIX = '.segment-';

function fileOf(db: string, nonce: string): string {
  return `${db}${PREFIX}${nonce}`;
}

/** The database file's absolute path (a store whose snapshot has a file beside it: SQLite). */
const storeFile = (store: ContactStore): string | undefined => snapshotOf(store)?.store;

/** An error's first line: a worker's error carries its stack after it. */
export const firstLine = (err: unknown): string =>
  (err instanceof Error ? err.message : String(err)).split('\n')[0];

/**
 * Contacts fed to a segment worker as a write puts them, once `startAt` says the write is big
 * enough (the first ones held until then), and the worker's build.
 */
class SegmentFeed {
  private held: Contact[] = [];
  private count = 0;
  private queue: Batches | undefined;
  private built: Promise<Done> | undefined;
  private failed = false;
  private readonly stop = new AbortController();

  constructor(
    private readonly startAt: (count: number) => boolean,
    private readonly begin: (batches: Batches, signal: AbortSignal) => Promise<Done>,
  ) {}

  put(contacts: readonly Contact[]): void {
    this.count += contacts.length;
    if (this.failed) return;
    if (this.count > FEED_LIST_BIG) {
      // Its feed row will say "everything": readers rebuild whole, a segment would go unused.
      this.abandon();
      return;
    }
    if (this.queue) return this.queue.push(contacts);
    for (const c of contacts) this.held.push(c);
    if (!this.startAt(this.count)) return;
    this.queue = new Batches();
    this.built = this.begin(this.queue, this.stop.signal);
    this.built.catch(() => (this.failed = true));
    this.queue.push(this.held);
    this.held = [];
  }

  /** The last contact was put: the segment's build, if one runs. */
  end(): Promise<Done> | undefined {
    this.held = [];
    if (!this.queue || this.failed) return undefined;
    this.queue.end();
    return this.built;
  }

  /** The worker stopped (a file it wrote already: `then` of what `end` returned). */
  abandon(): void {
    this.failed = true;
    this.held = [];
    this.queue?.end();
    this.stop.abort();
  }
}

/** How a writer builds its segment (writerSegment). */
export interface WriterSegmentOptions {
  /** Whether a write of this many contacts so far gets a segment (the first ones held until then). */
  startAt?: (count: number) => boolean;
  /** The column layout (IndexLoader's `unique`); by default as the snapshot beside the store says. */
  unique?: boolean[];
  /** On the spare segment worker (a server's own import), not a worker started for it. */
  spare?: boolean;
  /** The build is wanted here too (a server's own import): `seal` returns it (OwnSegment). */
  own?: boolean;
}

/**
 * The writer's half, for one transaction on `store`: the segment built as the contacts are written
 * (from WRITER_SEGMENT.min of them, or `startAt`). On SQLite, before the commit, `seal` waits for it
 * (the worker writes its file) and marks the transaction, so every reader of the store can load it:
 * the import CLI, and a server's own import, whose other worker processes read the store's feed like
 * any other reader. A failure there is no failure of the write: the transaction commits unmarked,
 * the file deleted (the readers build). With `own`, `seal` also hands the build to the caller — on
 * a store with no file of its own (PostgreSQL) unawaited, so the commit does not wait for it.
 */
export function writerSegment(
  store: ContactStore,
  {
    startAt = (n) => n >= WRITER_SEGMENT.min,
    unique,
    spare = false,
    own = false,
  }: WriterSegmentOptions = {},
): ImportTee<OwnSegment> | undefined {
  const db = storeFile(store);
  const code = indexCodeVersion();
  const filed = db !== undefined && code !== undefined;
  if (!filed && !own) return undefined;
  const nonce = randomUUID();
  const file = filed ? fileOf(db, nonce) : undefined;
  const out = filed
    ? {
        file: file!,
        meta: {
          segment: SEGMENT_VERSION,
          code,
          store: db,
          nonce,
          tuning: { ...TUNING },
          table: { ...TABLE_TUNING },
        } satisfies Omit<SegmentMeta, 'contacts' | 'writtenAt'>,
      }
    : undefined;
  const feed = new SegmentFeed(startAt, (batches, signal) =>
    segmentFromBatches(
      batches,
      unique ?? uniqueColumns(store),
      out,
      signal,
      spare,
      own ? undefined : WRITER_SEGMENT.nice,
      own,
    ),
  );
  const dropped = (built: Promise<Done> | undefined) => {
    feed.abandon();
    if (!file) return;
    drop(file);
    void built?.then(
      () => drop(file),
      () => drop(file),
    );
  };
  let built: Promise<Done> | undefined;
  const mine = (): OwnSegment | undefined =>
    own && built ? { built, abandon: () => feed.abandon() } : undefined;
  return {
    put: (contacts) => feed.put(contacts),
    async seal(tx: StoreTransaction) {
      built = feed.end();
      if (!built) return undefined;
      if (!file || !tx.segment) {
        if (!own) dropped(built);
        return mine();
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error('late')), WRITER_SEGMENT.waitMs);
      });
      try {
        await Promise.race([built, late]);
        tx.segment(nonce);
        return mine();
      } catch {
        dropped(built); // the readers build from the store instead
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    },
    abandon: () => dropped(built ?? feed.end()),
  };
}

/** A segment built by the write that made the change, in this process (writerSegment with `own`). */
export interface OwnSegment {
  built: Promise<Done>;
  /** Not used after all: its worker stopped. */
  abandon(): void;
}

/** Contact batches for the segment worker, as they are written. */
class Batches implements AsyncIterable<readonly Contact[]> {
  private readonly items: (readonly Contact[])[] = [];
  private done = false;
  private wake: (() => void) | undefined;

  push(batch: readonly Contact[]): void {
    if (batch.length === 0 || this.done) return;
    this.items.push(batch);
    this.wake?.();
  }

  end(): void {
    this.done = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<readonly Contact[]> {
    for (;;) {
      const next = this.items.shift();
      if (next) yield next;
      else if (this.done) return;
      else await new Promise<void>((w) => (this.wake = w));
      this.wake = undefined;
    }
  }
}

function drop(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* gone already */
  }
}

/**
 * The server's half: the segment the writer of a change built, for the change of these ids; a string
 * saying why not when it may not be used. Old segment files are swept meanwhile.
 */
export async function writerSegmentFor(
  store: ContactStore,
  nonce: string,
  ids: readonly string[],
): Promise<Done | string> {
  const db = storeFile(store);
  if (!db || !/^[0-9a-f-]{36}$/.test(nonce)) return 'not a SQLite store or not a nonce';
  const file = fileOf(db, nonce);
  try {
    const done = await loadInWorker(file, true);
    const m = (done.meta ?? {}) as Partial<SegmentMeta>;
    if (m.segment !== SEGMENT_VERSION) return `segment version ${m.segment}`;
    if (!m.code || m.code !== indexCodeVersion()) return 'built by other code';
    if (m.store !== db) return `built for another store (${m.store})`;
    if (m.nonce !== nonce) return 'another nonce';
    if (JSON.stringify(m.tuning) !== JSON.stringify(TUNING)) return 'other tuning';
    if (JSON.stringify(m.table) !== JSON.stringify(TABLE_TUNING)) return 'other table tuning';
    const change = new Set(ids).size;
    if (m.contacts !== change) return `holds ${m.contacts} contacts, the change ${change}`;
    return done;
  } catch (err) {
    return firstLine(err);
  } finally {
    sweepWriterSegments(store);
  }
}

/**
 * Deletes the segment files beside `store` older than `ms` (and cut temporary ones): used by every
 * reader that was to use them, or left by a writer that stopped before its commit, or by a change
 * a server indexed otherwise (a small one).
 */
export function sweepWriterSegments(store: ContactStore, ms = WRITER_SEGMENT.keepMs): void {
  const db = storeFile(store);
  if (!db) return;
  const dir = dirname(db),
    name = basename(db) + PREFIX;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const before = Date.now() - ms;
  for (const n of names) {
    if (!n.startsWith(name)) continue;
    try {
      if (statSync(join(dir, n)).mtimeMs < before) drop(join(dir, n));
    } catch {
      /* gone meanwhile */
    }
  }
}
