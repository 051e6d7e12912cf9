/**
 * Room past an array's end (table/growable.ts giveRoom / roomFor: the zeros a snapshot leaves after
 * an array a write appends to). Properties checked:
 * 1. A Buffer's room (a dictionary's bytes) is a Buffer over the same memory, made without the
 *    deprecated `new Buffer(...)` (DEP0005: a warning in a server's log at its first write after a
 *    snapshot's open); a Growable of it grows into the room without a copy.
 * 2. A typed array's room is the same type over the same memory; past the room, it copies as before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { giveRoom, Growable, roomFor } from '../../src/search/table/growable.ts';

test("1. a Buffer's room is a Buffer over the same bytes, with no deprecation warning", async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error & { code?: string }) => warnings.push(w.code ?? w.name);
  process.on('warning', onWarning);
  try {
    const file = Buffer.alloc(64);
    const bytes = file.subarray(8, 24); // 16 bytes used, 40 after them in the same memory
    giveRoom(bytes, 32);
    const wide = roomFor(bytes, 40);
    assert.ok(Buffer.isBuffer(wide), 'a Buffer');
    assert.equal(wide.length, 48);
    assert.equal(wide.buffer, file.buffer);
    assert.equal(wide.byteOffset, 8);
    const g = new Growable<Uint8Array>(bytes);
    g.n = 16;
    g.push(7);
    assert.equal(g.a, wide, 'grown into the room: no copy');
    assert.equal(file[24], 7);
  } finally {
    await new Promise((r) => setImmediate(r)); // warnings are emitted on a later tick
    process.off('warning', onWarning);
  }
  assert.deepEqual(warnings, []);
});

test("2. a typed array's room is its type over the same memory; past it, a copy", () => {
  const all = new Uint32Array(32);
  const ids = all.subarray(0, 10);
  giveRoom(ids, 100); // only 22 fit
  const wide = roomFor(ids, 20);
  assert.ok(wide instanceof Uint32Array);
  assert.equal(wide.length, 32);
  assert.equal(wide.buffer, all.buffer);
  assert.equal(roomFor(ids, 33), undefined, 'past the room');
  const g = new Growable<Uint32Array>(ids);
  g.n = 10;
  for (let i = 0; i < 30; i++) g.push(i);
  assert.notEqual(g.a.buffer, all.buffer, 'copied once the room ran out');
  assert.equal(g.a[39], 29);
  assert.equal(all[31], 21, 'the room was used first');
});
