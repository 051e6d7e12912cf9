/** A small fixed data set behind the real service (SQLite file in a temp folder), called without the wire. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS, type Limits } from '../../src/config.ts';
import { ServiceError } from '../../src/errors.ts';
import type { OperationName } from '../../src/operations/table.ts';
import { createService } from '../../src/service/index.ts';
import type { Service } from '../../src/service/types.ts';
import type { Contact } from '../../src/fields/contact.ts';
import { openDatabase, registryOf } from '../../src/database/registry.ts';
import { contact } from '../cases/store.case.ts';

export { contact };

export interface Fixture {
  call(op: OperationName, params: object, asType?: string): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The ids GetSearchResults returns for a query, in order. */
  ids(params: object): Promise<string[]>;
  /** The error code an operation fails with ('none' when it succeeds). */
  code(op: OperationName, params: object | string, asType?: string): Promise<string>;
  /** ProcessRequest on Demo: the Response string. */
  processRequest(args: object): Promise<string>;
  /** Every contact by ContactId, timestamps left out: what a round trip must give back. */
  contacts(): Omit<Contact, 'CreatedAt' | 'UpdatedAt'>[];
  db: Awaited<ReturnType<typeof openDatabase>>;
  service: Service;
  close(): Promise<void>;
}

export async function fixture(contacts: Contact[], limits: Partial<Limits> = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-fixture-'));
  const db = await openDatabase({ name: 'Demo', backend: 'sqlite' }, dir);
  await db.write({ upsert: contacts });
  const databases = registryOf(new Map([['demo', db]]));
  const service = createService({ databases, limits: { ...DEFAULT_LIMITS, ...limits } });
  const invoke = (op: OperationName, params: object | string, asType = 'JSON') =>
    service.invoke({
      op,
      StringOfJSONParameters: typeof params === 'string' ? params : JSON.stringify(params),
      DBName: 'Demo',
      AsType: asType,
      caller: { binding: 'httpget', loopback: true },
    });
  const f: Fixture = {
    db,
    service,
    async call(op, params, asType) {
      const r = await invoke(op, params, asType);
      return r.kind === 'text' && op !== 'ProcessRequest'
        ? JSON.parse(r.text)
        : r.kind === 'text'
          ? r.text
          : r.element;
    },
    async ids(params) {
      const doc = await f.call('GetSearchResults', { PageSize: 500, ...params });
      return doc.Rows.map((r: { ContactId: string }) => r.ContactId);
    },
    async code(op, params, asType) {
      try {
        await invoke(op, params, asType);
        return 'none';
      } catch (e) {
        return e instanceof ServiceError ? e.code : `thrown ${String(e)}`;
      }
    },
    processRequest: (args) => f.call('ProcessRequest', { DBName: 'Demo', ...args }),
    contacts: () =>
      [...db.all()]
        .map((c) => ({ ...c, CreatedAt: undefined, UpdatedAt: undefined }))
        .sort((a, b) => a.ContactId.localeCompare(b.ContactId)),
    async close() {
      await databases.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return f;
}

/** People whose names exercise the rules of CONTRACT §4. */
export const PEOPLE: Contact[] = [
  contact('p01', 'John', 'Smith', {
    Organization: 'Acme',
    Emails: ['john.smith@acme.com'],
    Phones: ['+1 (617) 555-0101'],
    City: 'Boston',
    Country: 'US',
    Tags: ['customer'],
  }),
  contact('p02', 'Jon', 'Smithers', {
    Organization: 'Globex',
    Emails: ['jon@globex.com'],
    Phones: ['+44 20 7946 0958'],
    City: 'London',
    Country: 'GB',
    Tags: ['lead'],
  }),
  contact('p03', 'Zoë', 'Ångström', {
    Organization: 'Nordic AB',
    Emails: ['zoe.angstrom@nordic.se'],
    Phones: ['+46 8 123 456 78'],
    City: 'Stockholm',
    Country: 'SE',
    Tags: ['vip', 'customer'],
  }),
  contact('p04', 'Anna', 'Johnson', {
    Organization: 'Smith & Co',
    Emails: ['anna@smithco.com'],
    Phones: ['030 1234567'],
    City: 'Berlin',
    Country: 'DE',
    Tags: ['partner'],
  }),
  contact('p05', 'Jürgen', 'Groß', {
    Organization: 'Straße GmbH',
    Emails: ['j.gross@strasse.de'],
    Phones: ['+49 30 9876543'],
    City: 'München',
    Country: 'DE',
    Tags: [],
  }),
  contact('p06', '太郎', '山田', {
    Organization: '山田商事',
    Emails: ['taro@yamada.jp'],
    Phones: ['+81 3-1234-5678'],
    City: '東京',
    Country: 'JP',
    Tags: ['vip'],
  }),
  contact('p07', 'Maria', 'Schmidt', {
    Organization: 'Acme',
    Emails: ['maria.schmidt@acme.com'],
    Phones: ['+49 89 5550123'],
    City: 'Munich',
    Country: 'DE',
    Tags: ['customer'],
    CreatedAt: '2023-05-01T00:00:00.000Z',
  }),
  contact('p08', 'Smith', 'Taylor', {
    Organization: 'Initech',
    Emails: ['st@initech.com'],
    Phones: ['+1 212 555 0199'],
    City: 'New York',
    Country: 'US',
    Tags: ['lead'],
    CreatedAt: '2025-02-01T00:00:00.000Z',
  }),
  contact('p09', 'Łukasz', 'Wójcik', {
    Organization: 'Polmex',
    Emails: ['lukasz.wojcik@polmex.pl'],
    Phones: ['+48 22 555 01 02'],
    City: 'Kraków',
    Country: 'PL',
    Tags: [],
  }),
  contact('p10', 'Anne', 'Smyth', {
    Organization: 'Acme',
    Emails: ['anne.smyth@acme.com'],
    Phones: ['+1 617 555 0177'],
    City: 'Boston',
    Country: 'US',
    Tags: ['customer'],
  }),
];
