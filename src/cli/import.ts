/**
 * `npm run import -- --db NAME FILE [--format CSV|VCard|JSON] [--mode Upsert|Insert|Replace|Merge] [--dry-run] [--partial] [--xml] [--no-segment]`:
 * the ImportContacts write path (importReport: validation, likely duplicates, one transaction) on a
 * file of any size. A CSV is parsed as it is read and written slice by slice into one transaction, so
 * memory stays flat; the store is written directly, without building a search index this process
 * would throw away. A running server sees what it wrote through the change feed (docs/DESIGN.md).
 * Prints a summary for a person (problems per kind with their rows, columns not kept, duplicates; with
 * --dry-run what each column becomes), or with --xml the Response ProcessRequest would give. A progress
 * bar on files over 1 MiB when the terminal shows it. Exit code 1 when nothing was imported, 2 for a usage error.
 * A write of 20,000 contacts or more into SQLite also builds its index segment on a worker as it goes
 * and leaves it beside the file for a running server (database/writer-segment.ts); `--no-segment`
 * does not (the server then indexes the change itself, seconds later).
 */
import { statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { loadConfig } from '../config.ts';
import { FORMATS, IMPORT_MODES } from '../service/requests/definitions.ts';
import { importReport, type ImportMode } from '../service/requests/import-records.ts';
import { reportText, reportXml } from '../service/requests/import-report.ts';
import { rowsOfFile, type LayoutHolder } from '../io/import-file.ts';
import { importTarget } from '../store/import-target.ts';
import { openStore } from '../database/registry.ts';
import { snapshotIndex } from '../database/snapshot-index.ts';
import { BUILD_WORKER } from '../database/worker-build.ts';
import type { ContactStore } from '../store/store.ts';
import { writerSegment } from '../database/writer-segment.ts';
import { cliArgs } from './args.ts';

const usage =
  'npm run import -- --db NAME FILE [--format CSV|VCard|JSON] [--mode Upsert|Insert|Replace|Merge] [--dry-run] [--partial] [--xml] [--no-segment]';
const { values, positionals } = cliArgs(
  {
    db: { type: 'string', default: 'Demo' },
    format: { type: 'string' },
    mode: { type: 'string', default: 'Upsert' },
    'dry-run': { type: 'boolean', default: false },
    partial: { type: 'boolean', default: false },
    xml: { type: 'boolean', default: false },
    'no-segment': { type: 'boolean', default: false },
  },
  usage,
);
const die = (msg: string) => {
  console.error(`${msg}\nusage: ${usage}`);
  process.exit(2);
};
const file = positionals[0];
if (!file) die('no FILE given');
const format =
  values.format ??
  (
    { '.csv': 'CSV', '.vcf': 'VCard', '.vcard': 'VCard', '.json': 'JSON' } as Record<string, string>
  )[extname(file).toLowerCase()];
if (!format || !(FORMATS as readonly string[]).includes(format))
  die(`cannot tell the format of ${file}; pass --format ${FORMATS.join('|')}`);
const mode = values.mode as ImportMode;
if (!IMPORT_MODES.includes(mode)) die(`--mode must be ${IMPORT_MODES.join(', ')}, not "${mode}"`);
let size = 0;
try {
  size = statSync(file).size;
} catch {
  die(`cannot read ${file}`);
}

const config = loadConfig();
const d = config.databases.find((x) => x.name.toLowerCase() === values.db!.toLowerCase());
if (!d)
  die(
    `no database named "${values.db}" is configured (${config.databases.map((x) => x.name).join(', ')})`,
  );
const store = await openStore(d!, config.dataDir).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e)); // one line naming what to fix (database/registry.ts)
  return process.exit(2);
});
/** Large files only: a small one is done before a bar could say anything. */
const bar =
  size > 1 << 20
    ? new SingleBar(
        { format: `import {bar} {percentage}% | {rows} rows | {eta}s left` },
        Presets.shades_classic,
      )
    : undefined;
bar?.start(size, 0, { rows: 0 });
let read = 0;
const layout: LayoutHolder = {};
try {
  const report = await importReport(
    importTarget(
      store,
      undefined,
      values['no-segment'] || values['dry-run'] ? undefined : () => writerSegment(store),
      () => snapshotScan(store),
    ),
    rowsOfFile(format, file, (n) => bar?.update((read += n)), layout),
    { check() {}, checkNow() {} }, // an operator's import has no time budget: the 30 s request budget is for callers over the wire
    {
      request: 'ImportContacts',
      mode,
      dryRun: values['dry-run']!,
      allOrNothing: !values.partial,
      duplicates: true,
      layout,
      progress: (rows) => bar?.update(read, { rows }),
    },
  );
  bar?.update(size);
  bar?.stop();
  console.log(values.xml ? reportXml(report) : reportText(report, basename(file)));
  if (report.status === 'Rejected' || report.counts.Valid === 0) process.exitCode = 1;
} catch (e) {
  bar?.stop();
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  await store.close();
}

/**
 * The likely-duplicate search's contacts by column, from the index snapshot a server wrote beside
 * the store: the file's emails and phones are then looked up, not every contact read (7.5 s for a
 * one-row file into 1M). Without one, undefined: every contact is read from the store, and said so
 * where a server would have written one (BUILD_WORKER.minContacts or more).
 */
async function snapshotScan(store: ContactStore) {
  const got = await snapshotIndex(store);
  if ('index' in got) return got.index.scan();
  if ((await store.count()) >= BUILD_WORKER.minContacts)
    console.error(`likely duplicates: ${got.why}; reading every contact from the store`);
  return undefined;
}
