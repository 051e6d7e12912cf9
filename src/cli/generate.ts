/** `npm run generate -- --db NAME --count N [--data-dir DIR] [--seed S]`: generate demo contacts into a configured (or new SQLite) database. */
import { SingleBar, Presets } from 'cli-progress';
import { DBNAME_PATTERN, loadConfig } from '../config.ts';
import { generateContacts } from '../demo/generate.ts';
import { openStore } from '../database/registry.ts';
import { applyChange } from '../store/store.ts';
import { cliArgs } from './args.ts';

const usage = 'npm run generate -- --db NAME --count N [--data-dir DIR] [--seed S]';
const { values } = cliArgs(
  {
    db: { type: 'string', default: 'Demo' },
    count: { type: 'string', default: '10000' },
    seed: { type: 'string' },
    'data-dir': { type: 'string' },
  },
  usage,
);
const count = Number(values.count);
if (!Number.isInteger(count) || count < 1 || count > 100_000_000) {
  console.error(`--count must be 1–100000000\nusage: ${usage}`);
  process.exit(2);
}
if (!DBNAME_PATTERN.test(values.db!)) {
  console.error(`--db must be 1–64 of A–Z a–z 0–9 _ -\nusage: ${usage}`);
  process.exit(2);
}
const config = loadConfig();
const d = config.databases.find((x) => x.name.toLowerCase() === values.db!.toLowerCase()) ?? {
  name: values.db!,
  backend: 'sqlite' as const,
};
const store = await openStore(d, values['data-dir'] ?? config.dataDir);
const start = (await store.count()) + 1;
const bar = new SingleBar(
  { format: 'generate {bar} {percentage}% | {value}/{total} contacts | {eta}s left' },
  Presets.shades_classic,
);
const t0 = Date.now();
bar.start(count, 0);
let done = 0;
for (const batch of generateContacts(
  { count, seed: values.seed ? Number(values.seed) : undefined, startAt: start },
  20_000,
)) {
  await applyChange(store, { upsert: batch });
  done += batch.length;
  bar.update(done);
}
bar.stop();
await store.close();
console.log(
  `${count} contacts written to ${d.name} in ${((Date.now() - t0) / 1000).toFixed(1)} s (ids from C${String(start).padStart(7, '0')})`,
);
