/**
 * `npm run bench:snapshot-open -- --data-dir DIR [--opens 3]`: start-up from the index snapshot.
 * Opens DIR/Demo.db once as the server does (a build, unless a usable `Demo.db.index` is there: it
 * writes one), then `opens` more times, each time in a fresh process (so each pays what a restart
 * pays), and prints each open's time, where its index came from (snapshot or store) and its RSS.
 * DIR gets the snapshot file (0.8 GB at 1M): use a copy of a shared folder.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    opens: { type: 'string', default: '3' },
    child: { type: 'boolean', default: false },
  },
});
if (!values['data-dir']) {
  console.error('--data-dir DIR (a folder holding Demo.db; the snapshot is written beside it)');
  process.exit(2);
}
const dir = resolve(values['data-dir']);

if (values.child) {
  const { openDatabase } = await import('../src/database/registry.ts');
  const t = performance.now();
  const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dir);
  const s = ((performance.now() - t) / 1000).toFixed(1);
  const rss = (process.memoryUsage().rss / 2 ** 20).toFixed(0);
  console.log(`${db.size} contacts in ${s} s from ${db.openedFrom}; RSS ${rss} MB`);
  await db.close();
} else {
  const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
  for (let i = 0; i <= Number(values.opens); i++) {
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, import.meta.filename, '--data-dir', dir, '--child'],
      { encoding: 'utf8', env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' } },
    );
    console.log(`open ${i}: ${out.trim()} (${uptime()})`);
  }
}
