/**
 * The index build on a worker thread (worker-build.ts starts it): contacts in — read from the SQLite
 * file itself, or sent in batches by the main thread — and the built index out, as an image whose
 * buffers are transferred (search/index/image.ts), so the main thread's event loop never runs a build.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nicer } from '../nicer.mjs';
import type { Contact } from '../fields/contact.ts';
import { TUNING } from '../search/heads.ts';
import { buildBase, type Built } from '../search/index/build.ts';
import { imageOf, transferList } from '../search/index/image.ts';
import { IndexLoader } from '../search/index/loader.ts';
import { TABLE_TUNING } from '../search/table/dictionary.ts';
import { readAllDocs, readDocsById } from '../store/sqlite/read-all.ts';
import { checkImageFile, imageOffsets, withHoles } from '../search/index/image-file.ts';
import { metaFor, writeSnapshot, type SnapshotMeta } from './snapshot.ts';
import type { BuildRequest, BuildReply, Steps } from './worker-build.ts';
import { storedContact } from '../fields/stored.ts';

const port = parentPort!;
/**
 * A spare (worker-build.ts, `spareSegmentWorker`) is started ahead with no request: its thread,
 * tsx and these modules load while nothing waits for them, and the request comes by message.
 */
const spare = (workerData as { spare?: true }).spare === true;
let request!: BuildRequest;
// Where a build's time goes (rebuilds.ts logs a segment's): the worker's start is up to here.
let steps!: Steps;
let loader!: IndexLoader;

function begin(r: BuildRequest): void {
  request = r;
  steps = { startedAt: Date.now(), readMs: 0, tokeniseMs: 0, buildMs: 0 };
  nicer(request.nice); // this thread only: the answering thread comes first
  // The plan's thresholds as the main thread has them (tests lower them).
  Object.assign(TUNING, request.tuning);
  Object.assign(TABLE_TUNING, request.table);
  loader = new IndexLoader({ unique: request.unique });
  run();
}

function reply(r: BuildReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(r, transfer);
}

function finish(read: number | undefined): void {
  if (request.fail) throw new Error(request.fail);
  let built: Built | undefined;
  const t = performance.now();
  for (const _ of buildBase(loader, (b) => (built = b), { ranks: !request.segment }));
  const image = imageOf(built!, !request.segment); // a snapshot with room for the writes after its open
  steps.buildMs = performance.now() - t;
  const seq = read ?? request.snapshot?.seq;
  // The file the image was written to, left open when this thread's large arrays are to be mapped
  // from it (`mapFrom`): what goes back is then pages of that file, not copies of this thread's.
  const keep = request.mapFrom !== undefined;
  let written: { fd: number; at: number[] } | undefined;
  const write = (file: string, meta: object) => {
    const fd = writeSnapshot(file, image, meta, keep);
    if (fd !== undefined) written = { fd, at: imageOffsets(image, meta) };
  };
  const f = request.segmentFile;
  if (f) {
    reply({ writing: true });
    write(f.file, { ...f.meta, contacts: built!.base.n, writtenAt: new Date().toISOString() }); // a failure is the build's: the writer marks nothing
  }
  let snapshotError: string | undefined;
  const s = request.snapshot;
  const meta = s && seq !== undefined ? metaFor(s.store, seq, built!.base.n) : undefined;
  if (s && meta) {
    reply({ writing: true });
    try {
      write(s.file, meta);
    } catch (err) {
      snapshotError = err instanceof Error ? err.message : String(err);
    }
  }
  const out = written
    ? { ...withHoles(image, written.at, request.mapFrom!), fd: written.fd }
    : { image };
  reply({ ...out, seq, snapshotError, steps }, transferList(out.image));
}

/**
 * A snapshot's image, checked: the CRC (checkImageFile) and its count against its header, read from
 * the file the main thread opened (worker-build.ts loadInWorker). Its large arrays are left out
 * when the main thread maps them (`mapFrom`).
 */
function load(): void {
  if (request.fail) throw new Error(request.fail);
  const fd = request.loadFd!;
  const { image, meta, places } = checkImageFile<SnapshotMeta>(fd, request.mapFrom);
  if (image.header.n !== meta.contacts) throw new Error('snapshot header and image disagree');
  const mapped = places.some((p) => p) ? { places, fd } : {};
  reply({ image, seq: meta.seq, meta, ...mapped }, transferList(image));
}

/** Stored rows into the loader: their documents decoded, their fields tokenised. */
function tokenise(rows: [string, string][]): void {
  const t = performance.now();
  for (const [key, doc] of rows) loader.add(storedContact(JSON.parse(doc), key));
  steps.tokeniseMs += performance.now() - t;
}

function failed(err: unknown): void {
  reply({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}

function run(): void {
  try {
    if (request.loadFd !== undefined) load();
    else if (request.sqliteFile && request.ids !== undefined) {
      const t = performance.now();
      readDocsById(request.sqliteFile, JSON.parse(request.ids) as string[], tokenise);
      steps.readMs = performance.now() - t - steps.tokeniseMs;
      finish(undefined);
    } else if (request.sqliteFile) {
      const t = performance.now();
      const seq = readAllDocs(request.sqliteFile, tokenise);
      steps.readMs = performance.now() - t - steps.tokeniseMs;
      finish(seq);
    } else {
      port.on('message', (m: { batch?: Contact[]; end?: true }) => {
        try {
          if (m.batch) for (const c of m.batch) loader.add(c);
          if (m.end) finish(undefined);
        } catch (err) {
          failed(err);
        }
      });
    }
  } catch (err) {
    failed(err);
  }
}

if (spare) port.once('message', (r: BuildRequest) => begin(r));
else begin(workerData as BuildRequest);
