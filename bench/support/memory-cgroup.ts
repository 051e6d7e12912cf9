/**
 * A memory cgroup of its own for a benchmark's server (bench:memory-cap, bench:live --cap-mb): v2
 * when the unified hierarchy is mounted at /sys/fs/cgroup, else v1's memory controller; capped at
 * `capMb` (both count the page cache). Root, Linux.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function memoryCgroup(name: string, capMb: number) {
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
  const dir = v2 ? `/sys/fs/cgroup/${name}` : `/sys/fs/cgroup/memory/${name}`;
  mkdirSync(dir);
  writeFileSync(join(dir, v2 ? 'memory.max' : 'memory.limit_in_bytes'), String(capMb * 1048576));
  /** A file of the group's; '' once it is gone. */
  const read = (f: string) => {
    try {
      return readFileSync(join(dir, f), 'utf8');
    } catch {
      return '';
    }
  };
  return {
    v2,
    dir,
    procs: join(dir, 'cgroup.procs'),
    read,
    /** Moves process `pid` into the group. */
    add: (pid: number) => writeFileSync(join(dir, 'cgroup.procs'), String(pid)),
    /** The group's peak (page cache counted) and its OOM kills. */
    report: () => {
      const peak = Number(read(v2 ? 'memory.peak' : 'memory.max_usage_in_bytes')) || 0;
      const kills = /^oom_kill (\d+)/m.exec(read(v2 ? 'memory.events' : 'memory.oom_control'))?.[1];
      return `peak ${Math.round(peak / 1048576)} MB (page cache counted), OOM kills ${kills ?? '?'}`;
    },
    /** Removes the group (it must hold no process by then); left for the operator when it still does. */
    remove: () => {
      try {
        rmdirSync(dir);
      } catch {
        /* still busy */
      }
    },
  };
}
