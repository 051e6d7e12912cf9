/**
 * `npm run bench:import [-- --count N]`: imports N demo contacts from one CSV file through the import
 * CLI (the ImportContacts code path) into a fresh SQLite database, and prints the wall time and the
 * importer's peak RSS. The CSV (every writable field, exported with the service's own CSV writer, in
 * slices) is written once to .tmp/bench-import/. Not a test.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { demoCsv } from './support/csv.ts';

const { values } = parseArgs({ options: { count: { type: 'string', default: '1000000' } } });
const count = Number(values.count);
const root = resolve(import.meta.dirname, '..');
const dir = join(root, '.tmp', 'bench-import');
const file = await demoCsv(dir, count);
const data = join(dir, 'data');
rmSync(data, { recursive: true, force: true });
const t0 = performance.now();
const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'src/cli/import.ts', '--db', 'Demo', file],
  {
    cwd: root,
    env: { ...process.env, CONTACT_SEARCH_DATA_DIR: data, MALLOC_MMAP_THRESHOLD_: '131072' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let peak = 0,
  report = '';
child.stdout.on('data', (d) => {
  report += d;
});
const poll = setInterval(() => {
  try {
    peak = Math.max(
      peak,
      Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) /
        1024,
    );
  } catch {
    /* exited */
  }
}, 200);
const code = await new Promise<number>((r) => child.on('exit', (c) => r(c ?? 1)));
clearInterval(poll);
const summary = /<Summary[^>]*>/.exec(report)?.[0] ?? report.slice(-300);
console.log(
  `${count.toLocaleString('en')} contacts from ${file} (${(readFileSync(file).length / 1e6).toFixed(0)} MB): exit ${code}, ` +
    `${((performance.now() - t0) / 1000).toFixed(1)} s wall, importer peak RSS ${Math.round(peak)} MB\n${summary}`,
);
