/**
 * `npm run bench:import [-- --count N]`: imports N demo contacts from one CSV file through the import
 * CLI (the ImportContacts code path) into a fresh SQLite database, and prints the wall time and the
 * importer's peak RSS. The CSV (every writable field, exported with the service's own CSV writer, in
 * slices) is written once to .tmp/bench-import/. Not a test.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { demoCsv } from './support/csv.ts';
import { runImportCli } from './support/import-cli.ts';

const { values } = parseArgs({ options: { count: { type: 'string', default: '1000000' } } });
const count = Number(values.count);
const root = resolve(import.meta.dirname, '..');
const dir = join(root, '.tmp', 'bench-import');
const file = await demoCsv(dir, count);
const data = join(dir, 'data');
rmSync(data, { recursive: true, force: true });
const t0 = performance.now();
// --xml: the Response's <Summary> is what this bench reports.
const {
  code,
  report,
  peakMb: peak,
} = await runImportCli(
  root,
  file,
  { CONTACT_SEARCH_DATA_DIR: data, MALLOC_MMAP_THRESHOLD_: '131072' },
  ['--xml'],
);
const summary = /<Summary[^>]*>/.exec(report)?.[0] ?? report.slice(-300);
console.log(
  `${count.toLocaleString('en')} contacts from ${file} (${(readFileSync(file).length / 1e6).toFixed(0)} MB): exit ${code}, ` +
    `${((performance.now() - t0) / 1000).toFixed(1)} s wall, importer peak RSS ${Math.round(peak)} MB\n${summary}`,
);
