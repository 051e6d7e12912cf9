/**
 * `npm run import -- --db NAME FILE [--format CSV|VCard|JSON] [--mode Upsert|Insert|Replace] [--dry-run] [--partial]`:
 * the same code path as ProcessRequest ImportContacts (validation, atomic write, Response report).
 * Run it while the server is stopped: a running server indexes the database at start.
 */
import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import { loadConfig } from '../config.ts';
import { ServiceError } from '../errors.ts';
import { createService } from '../service/index.ts';
import { openDatabases } from '../store/registry.ts';
import { cliArgs } from './args.ts';

const usage = 'npm run import -- --db NAME FILE [--format CSV|VCard|JSON] [--mode Upsert|Insert|Replace] [--dry-run] [--partial]';
const { values, positionals } = cliArgs({
  db: { type: 'string', default: 'Demo' }, format: { type: 'string' }, mode: { type: 'string', default: 'Upsert' },
  'dry-run': { type: 'boolean', default: false }, partial: { type: 'boolean', default: false },
}, usage);
const file = positionals[0];
if (!file) { console.error(`no FILE given\nusage: ${usage}`); process.exit(2); }
const format = values.format ?? ({ '.csv': 'CSV', '.vcf': 'VCard', '.vcard': 'VCard', '.json': 'JSON' } as Record<string, string>)[extname(file).toLowerCase()];
if (!format) { console.error(`cannot tell the format of ${file}; pass --format CSV|VCard|JSON`); process.exit(2); }

const config = loadConfig();
config.databases = config.databases.map((d) => ({ ...d, seedDemo: undefined })); // an import never seeds demo data
const bar = new SingleBar({ format: 'import {bar} {percentage}% | {stage}' }, Presets.shades_classic);
bar.start(3, 0, { stage: `opening ${values.db}` });
const databases = await openDatabases(config);
bar.update(1, { stage: `reading ${file} (${(statSync(file).size / 1e6).toFixed(1)} MB)` });
const content = readFileSync(file).toString('base64');
bar.update(2, { stage: 'validating and writing' });
// An operator's import has no size limit and no time budget: the 30 s request budget is for callers over the wire.
const service = createService({ databases, limits: { ...config.limits, processRequestBodyBytes: Number.MAX_SAFE_INTEGER, requestMs: Infinity } });
try {
  const result = await service.invoke({
    op: 'ProcessRequest', DBName: null, AsType: null, caller: { binding: 'json', loopback: true },
    StringOfJSONParameters: JSON.stringify({ Request: 'ImportContacts', DBName: values.db, Format: format, Content: content, Encoding: 'Base64',
      Mode: values.mode, DryRun: values['dry-run'], AllOrNothing: !values.partial }),
  });
  bar.update(3, { stage: 'done' });
  bar.stop();
  console.log(result.kind === 'text' ? result.text : '');
} catch (e) {
  bar.stop();
  console.error(e instanceof ServiceError ? `${e.code}: ${e.message}` : e);
  process.exitCode = 1;
} finally {
  await databases.close();
}
