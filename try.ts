import { readFileSync } from 'node:fs';
import { fixture } from './test/support/fixture.ts';
const f = await fixture([]);
await f.call('ProcessRequest', { Request: 'ImportContacts', DBName: 'Demo', Format: 'JSON', Content: readFileSync('test/fixtures/imports/service.json', 'utf8') });
const r = await f.call('ProcessRequest', { Request: 'ExportContacts', DBName: 'Demo', Format: 'CSV' });
console.log(r);
await f.close();
