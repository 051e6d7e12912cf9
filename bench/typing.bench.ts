/**
 * `npm run bench:typing [-- --data-dir DIR]`: replays bench:http's typing sessions in-process (no HTTP)
 * against DIR/Demo.db (default: bench:http's database; run that first), once to warm up and once timed,
 * and prints the mean, p50, p99 and the slowest queries: where the engine's time goes.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { createService } from '../src/service/index.ts';
import { openDatabase, registryOf } from '../src/database/registry.ts';
import { sampleContacts, typingSessions } from './support/typing.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { 'data-dir': { type: 'string', default: join(root, '.tmp', 'bench-http') } } });
const dir = resolve(values['data-dir']!);
const typing = typingSessions(sampleContacts(join(dir, 'Demo.db')));
const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dir);
// The engine is what this measures: no result cache (repeated queries would be hits).
const service = createService({ databases: registryOf(new Map([['demo', db]])), limits: { ...DEFAULT_LIMITS, resultCacheEntries: 0 } });
const call = (Text: string) => service.invoke({
  op: 'GetPredictiveOptionsSearchContacts', StringOfJSONParameters: JSON.stringify({ Text, Limit: 10 }), DBName: 'Demo', AsType: 'JSON',
  caller: { binding: 'soap11', loopback: true },
});
for (const q of typing) await call(q);
const times: [number, string][] = [];
for (const q of typing) { const t = performance.now(); await call(q); times.push([performance.now() - t, q]); }
const ms = times.map(([t]) => t).sort((a, b) => a - b);
const at = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
const us = (t: number) => `${Math.round(t * 1000)} µs`;
console.log(`${db.size.toLocaleString('en')} contacts, ${typing.length} typing queries: mean ${us(ms.reduce((a, b) => a + b, 0) / ms.length)}, p50 ${us(at(0.5))}, p99 ${us(at(0.99))}, max ${us(ms[ms.length - 1])}`);
console.log('slowest:', times.sort((a, b) => b[0] - a[0]).slice(0, 15).map(([t, q]) => `${JSON.stringify(q)} ${t.toFixed(1)} ms`).join(', '));
process.exit(0);
