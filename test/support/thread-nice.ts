/** The nice value of each of this process's threads, the main thread first (Linux: /proc/self/task). */
import { readdirSync, readFileSync } from 'node:fs';

export function niceOfThreads(): string[] {
  return [...niceByThread().values()];
}

/** Thread id → its nice value, the main thread first. */
export function niceByThread(): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
    } catch (e) {
      // A thread that ended between the listing and the read (a worker finishing): not one of ours now.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    out.set(t, stat.split(') ')[1].split(' ')[16]);
  }
  return out;
}

/** The nice values of the threads started since `before` (niceByThread's). */
export function niceOfNewThreads(before: Map<string, string>): string[] {
  return [...niceByThread()].filter(([t]) => !before.has(t)).map(([, nice]) => nice);
}
