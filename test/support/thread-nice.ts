/** The nice value of each of this process's threads, the main thread first (Linux: /proc/self/task). */
import { readdirSync, readFileSync } from 'node:fs';

export function niceOfThreads(): string[] {
  const out: string[] = [];
  for (const t of readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
    } catch (e) {
      // A thread that ended between the listing and the read (a worker finishing): not one of ours now.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw e;
    }
    out.push(stat.split(') ')[1].split(' ')[16]);
  }
  return out;
}
