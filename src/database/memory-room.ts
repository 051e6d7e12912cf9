/**
 * How much more memory this process may take before the kernel kills it: the room under the memory
 * cgroup's limit (v2 `memory.max`, v1 the hierarchical limit; what a container, a Kubernetes pod or
 * systemd's MemoryMax sets), and the machine's available memory. A compaction's build needs ~2× the
 * index beside it for a while (rebuilds.ts); without the room it would be killed, and restarted
 * into the same build: a crash loop (docs/DEPLOYMENT.md). Linux; elsewhere nothing is known.
 *
 * Room under a cgroup limit is the limit less the group's anonymous and shared memory: its page
 * cache (the index snapshot's mapped pages among it) is given back under pressure, not charged.
 */
import { readFileSync } from 'node:fs';

export interface MemoryRoom {
  /** Bytes that may still be taken. */
  bytes: number;
  /** What bounds it: the cgroup's limit or the machine's memory. */
  bound: 'cgroup' | 'machine';
  /** That bound's limit (the machine: its MemTotal). */
  limit: number;
}

/** Reads a file of the kernel's (test: a fake tree); undefined when it is not there. */
export type ReadFile = (path: string) => string | undefined;

const readKernel: ReadFile = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** A `memory.stat`-like file's key, in bytes; undefined when absent. */
const stat = (text: string | undefined, key: string): number | undefined => {
  const m = text && new RegExp(`^${key} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
};

/** `/proc/meminfo`'s key, in bytes. */
const meminfo = (text: string | undefined, key: string): number | undefined => {
  const m = text && new RegExp(`^${key}:\\s+(\\d+) kB$`, 'm').exec(text);
  return m ? Number(m[1]) * 1024 : undefined;
};

/** Limits at or over this are "none" (v1 writes 2^63 rounded down to a page). */
const NO_LIMIT = 2 ** 60;

/** The process's memory cgroup: its limit and what it holds that is not page cache; undefined when unlimited or unknown. */
function cgroupRoom(read: ReadFile): MemoryRoom | undefined {
  const own = read('/proc/self/cgroup');
  if (!own) return undefined;
  const v1 = /^\d+:(?:[^:]*,)?memory(?:,[^:]*)?:(.*)$/m.exec(own)?.[1];
  if (v1 !== undefined) {
    // Inside a container the group is the mount's root; on a host, its path below it.
    for (const dir of [`/sys/fs/cgroup/memory${v1 === '/' ? '' : v1}`, '/sys/fs/cgroup/memory']) {
      const s = read(`${dir}/memory.stat`);
      const limit = stat(s, 'hierarchical_memory_limit');
      if (limit === undefined) continue;
      if (limit >= NO_LIMIT) return undefined;
      const used = (stat(s, 'total_rss') ?? 0) + (stat(s, 'total_shmem') ?? 0);
      return { bytes: Math.max(0, limit - used), bound: 'cgroup', limit };
    }
    return undefined;
  }
  const v2 = /^0::(.*)$/m.exec(own)?.[1];
  if (v2 === undefined) return undefined;
  for (const root of [`/sys/fs/cgroup${v2 === '/' ? '' : v2}`, '/sys/fs/cgroup']) {
    const s = read(`${root}/memory.stat`);
    if (s === undefined) continue;
    // The tightest memory.max from the group up to the mount's root.
    let limit = Infinity;
    for (
      let dir = root;
      dir.startsWith('/sys/fs/cgroup');
      dir = dir.slice(0, dir.lastIndexOf('/'))
    ) {
      const max = read(`${dir}/memory.max`)?.trim();
      if (max && max !== 'max') limit = Math.min(limit, Number(max));
    }
    if (!(limit < NO_LIMIT)) return undefined;
    const used = (stat(s, 'anon') ?? 0) + (stat(s, 'shmem') ?? 0);
    return { bytes: Math.max(0, limit - used), bound: 'cgroup', limit };
  }
  return undefined;
}

/** The room left, the tighter of the cgroup's and the machine's; undefined off Linux. */
export function memoryRoom(read: ReadFile = readKernel): MemoryRoom | undefined {
  const info = read('/proc/meminfo');
  const available = meminfo(info, 'MemAvailable'),
    total = meminfo(info, 'MemTotal');
  const machine: MemoryRoom | undefined =
    available !== undefined && total !== undefined
      ? { bytes: available, bound: 'machine', limit: total }
      : undefined;
  const group = cgroupRoom(read);
  if (!group || !machine) return group ?? machine;
  return group.bytes <= machine.bytes ? group : machine;
}
