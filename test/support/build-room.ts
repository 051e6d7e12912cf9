/**
 * The setup the memory-room tests share (compaction-room, build-claims): builds on workers from any
 * size (BUILD_WORKER.minContacts = 0), a put-off compaction looked at again every 100 ms, the room
 * given by a test (BUILD_WORKER.room) forgotten after each, everything restored at the end; a
 * temporary folder for the databases, removed then. Call once, at the top of the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach } from 'node:test';
import { BUILD_WORKER } from '../../src/database/worker-build.ts';

export function roomTests(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const saved = { ...BUILD_WORKER };
  BUILD_WORKER.minContacts = 0;
  BUILD_WORKER.compactionRecheckMs = 100;
  afterEach(() => {
    BUILD_WORKER.room = undefined;
  });
  after(() => {
    Object.assign(BUILD_WORKER, saved);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
