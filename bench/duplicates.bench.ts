/**
 * `npm run bench:duplicates [-- --data-dir DIR --rows 1,1000,100000 --rounds R --names]`: an import's
 * likely-duplicate search alone (service/requests/import-records.ts, a DryRun ImportContacts with
 * Duplicates on), in one process, over the database in DIR (DIR/Demo.db, generated with
 * `npm run generate` first; copy it: an open writes an index snapshot beside it). Each file is N
 * generated contacts with new ids, every tenth an existing contact again with its email in capitals.
 * Without `--names` the rows carry no organisation, so the search looks their emails and phones up
 * in the index (duplicates.ts sharingRows); with it, each row's name and organisation is a key too
 * and every row of the index is passed over for those. Prints, per file size, the report's time (ms)
 * round by round, its median and the duplicates found. Not a test.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/database/registry.ts';
import { generateContacts } from '../src/demo/generate.ts';
import type { Contact } from '../src/fields/contact.ts';
import type { ParsedRow } from '../src/io/csv.ts';
import { importReport } from '../src/service/requests/import-records.ts';
import type { ImportTarget } from '../src/store/import-target.ts';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string', default: '.tmp/bench-http' },
    rows: { type: 'string', default: '1,1000,100000' },
    rounds: { type: 'string', default: '3' },
    names: { type: 'boolean', default: false },
  },
});
const dir = resolve(values['data-dir']);
const sizes = values.rows.split(',').map(Number);
const rounds = Number(values.rounds);

const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dir);
console.log(
  `${db.size.toLocaleString('en')} contacts in ${dir}; name keys ${values.names ? 'on' : 'off'}`,
);
const existing = db.index.scan();
const firstRows = [...take(existing.rows(), Math.max(...sizes))];

function* take(rows: Iterable<number>, n: number): Iterable<number> {
  for (const r of rows) {
    if (n-- <= 0) return;
    yield r;
  }
}

function file(n: number, seed: number): ParsedRow[] {
  const made = [...generateContacts({ count: n, seed })].flat().slice(0, n);
  return made.map((c, i) => {
    const again = i % 10 === 0 ? db.index.doc(firstRows[i]) : undefined;
    const row: Contact = again
      ? { ...again, ContactId: `dup-${i}`, Emails: again.Emails.map((e) => e.toUpperCase()) }
      : { ...c, ContactId: `new-${seed}-${i}` };
    if (!values.names) delete row.Organization;
    return { line: i + 2, record: { ...row } };
  });
}

const target: ImportTarget = {
  lookup: async () => new Map(),
  begin: async () => {
    throw new Error('a DryRun writes nothing');
  },
  scan: () => db.index.scan(),
};

for (const n of sizes) {
  const times: number[] = [];
  let found = 0;
  for (let r = 0; r < rounds; r++) {
    const rows = file(n, 1000 + r);
    const t0 = performance.now();
    const report = await importReport(
      target,
      (async function* () {
        for (let i = 0; i < rows.length; i += 500) yield rows.slice(i, i + 500);
      })(),
      { check() {}, checkNow() {} },
      {
        request: 'ImportContacts',
        mode: 'Upsert',
        dryRun: true,
        allOrNothing: false,
        duplicates: true,
      },
    );
    times.push(performance.now() - t0);
    found = report.duplicates.length;
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${n.toLocaleString('en')} rows: ${times.map((t) => t.toFixed(0)).join(' / ')} ms, median ${sorted[sorted.length >> 1].toFixed(0)} ms; ${found.toLocaleString('en')} duplicates`,
  );
}
await db.close();
