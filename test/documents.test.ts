/**
 * The JSON description of the operations (src/operations/documents.ts, from which docs/OPERATIONS.md
 * is generated) against what the service does. Properties checked:
 * 1. Every answer of the six document operations, over requests that reach each member, has exactly
 *    the documented members with the documented types (null only where nullable, absent only where
 *    optional), down every documented shape; InternalUse adds the documented Internal.
 * 2. Every documented member of an answer shape appears in some answer: the docs describe nothing
 *    the service never sends.
 * 3. Every documented request member is accepted and an undocumented one is refused with
 *    UnknownMember: the operations check what the docs list.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DOCUMENTS, type Member } from '../src/operations/documents.ts';
import { SHAPES } from '../src/operations/shapes.ts';
import { OPERATIONS, type OperationName } from '../src/operations/table.ts';
import { fixture, PEOPLE, type Fixture } from './support/fixture.ts';

let f: Fixture;
before(async () => {
  f = await fixture(PEOPLE);
});
after(async () => {
  await f.close();
});

/** Member names seen per answer shape ('' is an operation's top level). */
const seen = new Map<string, Set<string>>();

function check(value: unknown, type: string, nullable: boolean | undefined, path: string): void {
  if (value === null) {
    assert.ok(nullable, `${path} is null but not documented nullable`);
    return;
  }
  if (type.endsWith('[]')) {
    assert.ok(Array.isArray(value), `${path} must be a list (${type})`);
    value.forEach((v, i) => check(v, type.slice(0, -2), false, `${path}[${i}]`));
    return;
  }
  switch (type) {
    case 'any':
      return;
    case 'string':
      assert.equal(typeof value, 'string', `${path} must be a string`);
      return;
    case 'integer':
      assert.ok(
        Number.isInteger(value),
        `${path} must be an integer, got ${JSON.stringify(value)}`,
      );
      return;
    case 'boolean':
      assert.equal(typeof value, 'boolean', `${path} must be a boolean`);
      return;
    case 'object':
      assert.ok(typeof value === 'object' && !Array.isArray(value), `${path} must be an object`);
      return;
  }
  const shape = SHAPES[type];
  assert.ok(shape, `${path}: documents.ts names shape ${type}, which SHAPES lacks`);
  members(value, shape.members, type, path);
}

function members(
  value: unknown,
  documented: readonly Member[],
  shapeName: string,
  path: string,
): void {
  assert.ok(
    value !== null && typeof value === 'object' && !Array.isArray(value),
    `${path} must be an object`,
  );
  const obj = value as Record<string, unknown>;
  const names = new Set(documented.map((m) => m.name));
  for (const key of Object.keys(obj))
    assert.ok(names.has(key), `${path}.${key} is not documented (${shapeName})`);
  const mark = seen.get(shapeName) ?? new Set<string>();
  seen.set(shapeName, mark);
  for (const m of documented) {
    if (!(m.name in obj)) {
      assert.ok(m.optional, `${path}.${m.name} is documented but absent`);
      continue;
    }
    mark.add(m.name);
    check(obj[m.name], m.type, m.nullable, `${path}.${m.name}`);
  }
}

type DocOp = Exclude<OperationName, 'ProcessRequest'>;

/** Requests that between them reach every member: matches in list fields, cursors, facets, ranges, files. */
const CASES: [DocOp, object][] = [
  ['GetPredictiveOptionsSearchContacts', { Text: 'jo sm' }],
  ['GetPredictiveOptionsSearchContacts', { Text: 'acme', Limit: 1 }],
  ['GetPredictiveOptionsSearchContacts', { Text: 'st@initech' }],
  ['GetPredictiveOptionsSearchContacts', { Text: '' }],
  ['GetPredictiveOptions', { Field: 'City', Text: 'b' }],
  ['GetPredictiveOptions', { Field: 'Organization', Text: 'a', Limit: 1 }],
  ['GetSearchResults', { Query: 'smith', PageSize: 2, Facets: ['Country', 'Tags'] }],
  [
    'GetSearchResults',
    {
      Filters: [{ Field: 'Country', Op: 'In', Values: ['DE', 'US'] }],
      Sort: [{ Field: 'City', Dir: 'Desc' }],
      Fields: ['City', 'Emails'],
    },
  ],
  ['GetSearchResultHeaders', {}],
  ['GetSearchResultHeaders', { Fields: ['City'] }],
  ['GetSearchFilters', { Query: 'smith' }],
  ['GetRequestSupport', {}],
];

for (const [op, params] of CASES) {
  test(`${op} ${JSON.stringify(params)}: the answer is what documents.ts describes`, async () => {
    const doc = await f.call(op, params);
    members(doc, DOCUMENTS[op].response!, '', op);
  });
}

test('GetSearchResults through its cursor: Page null, Next the documented string', async () => {
  const first = await f.call('GetSearchResults', { Query: 'smith', PageSize: 1 });
  assert.equal(typeof first.Next, 'string');
  const next = await f.call('GetSearchResults', { Query: 'smith', PageSize: 1, After: first.Next });
  assert.equal(next.Page, null);
  members(next, DOCUMENTS.GetSearchResults.response!, '', 'GetSearchResults');
});

test('InternalUse adds Internal, as documented', async () => {
  const doc = await f.call('GetSearchResults', { Query: 'smith' }, 'InternalUse');
  check(doc.Internal, 'Internal', false, 'Internal');
  const { Internal: _, ...rest } = doc;
  members(rest, DOCUMENTS.GetSearchResults.response!, '', 'GetSearchResults');
});

test('every documented member of an answer shape appears in some answer', () => {
  const answerShapes = new Set<string>();
  const reach = (type: string) => {
    const name = type.replace(/\[\]$/, '');
    if (!SHAPES[name] || answerShapes.has(name)) return;
    answerShapes.add(name);
    for (const m of SHAPES[name].members) reach(m.type);
  };
  for (const o of OPERATIONS) for (const m of DOCUMENTS[o.name].response ?? []) reach(m.type);
  reach('Internal');
  for (const name of answerShapes) {
    const missing = SHAPES[name].members.map((m) => m.name).filter((n) => !seen.get(name)?.has(n));
    assert.deepEqual(missing, [], `${name}: documented but never answered`);
  }
});

for (const o of OPERATIONS.filter((x) => x.name !== 'ProcessRequest')) {
  test(`${o.name} accepts each documented request member and refuses others`, async () => {
    const op = o.name as DocOp;
    const base = op === 'GetPredictiveOptions' ? { Field: 'City' } : {};
    for (const m of DOCUMENTS[op].request) {
      // null means "not given": the member's name is accepted, whatever it must hold.
      const code = await f.code(op, { ...base, [m.name.toLowerCase()]: null });
      assert.notEqual(code, 'UnknownMember', `${op}: ${m.name} is documented but refused`);
    }
    assert.equal(await f.code(op, { ...base, Undocumented: 1 }), 'UnknownMember');
  });
}
