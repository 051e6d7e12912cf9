/** The CSV file of N demo contacts the import benchmarks read (every writable field, the service's own CSV writer), written once. */
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FIELDS } from '../../src/fields/schema.ts';
import { writeCsv } from '../../src/io/csv.ts';
import { generateContacts } from '../../src/demo/generate.ts';

export async function demoCsv(dir: string, count: number): Promise<string> {
  const file = join(dir, `contacts-${count}.csv`);
  mkdirSync(dir, { recursive: true });
  if (existsSync(file)) return file;
  const fields = FIELDS.filter((f) => !f.readOnly);
  const out = createWriteStream(file);
  let first = true;
  for (const batch of generateContacts({ count }, 20_000)) {
    const text = writeCsv(batch, fields);
    out.write(first ? text : text.slice(text.indexOf('\r\n') + 2)); // one header line
    first = false;
  }
  await new Promise((r) => out.end(r));
  return file;
}
