/**
 * `npm run bench:build-memory [-- --data-dir DIR --runs N]`: what a full index build costs in memory
 * (issue 25: the build queued behind a big import's segment was a 1M node's RSS peak). Builds the
 * Demo database of DIR (default bench:http's, .tmp/bench-http) as a server does — on a build worker
 * that reads the SQLite file itself (database/worker-build.ts), no snapshot written — N times (1),
 * sampling this process's RSS every 50 ms from its main thread, which only waits meanwhile; prints
 * each build's time and steps, the largest RSS sampled (own and mapped files) and the process's
 * high-water mark (VmHWM, reset before each build: every thread's pages, between two samples too). The main thread then holds
 * the built image (its buffers transferred, not copied), as a server's would beside its old index.
 * Linux (/proc/self/status). Run through the npm script: it sets MALLOC_MMAP_THRESHOLD_ like
 * `npm start`. Not a test.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildInWorker } from '../src/database/worker-build.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { procStatus, statusBytes } from './support/proc-status.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') },
    runs: { type: 'string', default: '1' },
  },
});
const status = () => procStatus('self');
const kb = statusBytes;
const mb = (n: number) => `${Math.round(n / 1048576)} MB`;

const store = openSqliteStore(join(resolve(values['data-dir']!), 'Demo.db'));
console.log(
  `${(await store.count()).toLocaleString('en')} contacts; before: RSS ${mb(kb(status(), 'VmRSS'))}`,
);
for (let run = 1; run <= Number(values.runs); run++) {
  let peak = { rss: 0, own: 0, files: 0 };
  try {
    writeFileSync('/proc/self/clear_refs', '5'); // the high-water mark starts again at this RSS
  } catch {
    /* older kernels: the mark is the process's since its start */
  }
  const sample = setInterval(() => {
    const s = status();
    const rss = kb(s, 'VmRSS');
    if (rss > peak.rss) peak = { rss, own: kb(s, 'RssAnon'), files: kb(s, 'RssFile') };
  }, 50);
  const t = performance.now();
  const done = await buildInWorker(store);
  const ms = performance.now() - t;
  clearInterval(sample);
  const s = status();
  const st = done.steps;
  console.log(
    `run ${run}: built ${done.image.header.n.toLocaleString('en')} contacts in ${(ms / 1000).toFixed(1)} s` +
      (st
        ? ` (read ${(st.readMs / 1000).toFixed(1)} s, tokenise ${(st.tokeniseMs / 1000).toFixed(1)} s, build ${(st.buildMs / 1000).toFixed(1)} s)`
        : '') +
      `; RSS sampled at most ${mb(peak.rss)} (own ${mb(peak.own)}, mapped files ${mb(peak.files)}), ` +
      `high-water mark ${mb(kb(s, 'VmHWM'))}; after, holding the image: ${mb(kb(s, 'VmRSS'))}`,
  );
  await new Promise((r) => setTimeout(r, 1000));
}
await store.close();
