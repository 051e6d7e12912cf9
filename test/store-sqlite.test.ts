/** The shared store suite against a real SQLite file in a temporary folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { storeCases } from './cases/store.case.ts';

const dir = mkdtempSync(join(tmpdir(), 'contacts-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
let file = '';
storeCases('sqlite',
  async () => { file = join(dir, `t${n++}.db`); return openSqliteStore(file); },
  async () => openSqliteStore(file));
