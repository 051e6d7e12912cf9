import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { ServiceError } from '../errors.ts';
import { authorize, KeyRing } from './api-keys.ts';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as ServiceError).code;
  }
  return 'none';
};

const ring = new KeyRing([
  { id: 'reader', secret: 's3cret', scopes: ['read'], databases: ['Demo'] },
  {
    id: 'admin',
    secret: `sha256:${createHash('sha256').update('root-pw').digest('hex')}`,
    scopes: ['read', 'write'],
    databases: '*',
  },
]);

test('no keys configured: everyone passes, authorize allows', () => {
  const open = new KeyRing([]);
  assert.equal(open.authenticate(undefined), undefined);
  assert.doesNotThrow(() => authorize(undefined, 'write', 'Demo'));
});

test('Basic and Bearer credentials authenticate; plain and hashed secrets', () => {
  assert.equal(ring.authenticate(basic('reader', 's3cret'))?.id, 'reader');
  assert.equal(ring.authenticate('Bearer admin:root-pw')?.id, 'admin');
});

test('missing, malformed or wrong credentials are Unauthorized', () => {
  assert.equal(
    code(() => ring.authenticate(undefined)),
    'Unauthorized',
  );
  assert.equal(
    code(() => ring.authenticate('Digest abc')),
    'Unauthorized',
  );
  assert.equal(
    code(() => ring.authenticate(basic('reader', 'wrong'))),
    'Unauthorized',
  );
  assert.equal(
    code(() => ring.authenticate(basic('nobody', 's3cret'))),
    'Unauthorized',
  );
  assert.equal(
    code(() => ring.authenticate('Bearer reader')),
    'Unauthorized',
  );
});

test('scopes and databases are enforced as Forbidden', () => {
  const reader = ring.authenticate(basic('reader', 's3cret'));
  assert.equal(
    code(() => authorize(reader, 'read', 'demo')),
    'none',
  );
  assert.equal(
    code(() => authorize(reader, 'write', 'Demo')),
    'Forbidden',
  );
  assert.equal(
    code(() => authorize(reader, 'read', 'Sales')),
    'Forbidden',
  );
  const admin = ring.authenticate('Bearer admin:root-pw');
  assert.equal(
    code(() => authorize(admin, 'write', 'Sales')),
    'none',
  );
});
