/** The nice value of each of this process's threads, the main thread first (Linux: /proc/self/task). */
import { readdirSync, readFileSync } from 'node:fs';

/** A thread that ends between the listing and the read of its stat (a worker done) is left out. */
export function niceOfThreads(): string[] {
  const out: string[] = [];
  for (const t of readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    out.push(stat.split(') ')[1].split(' ')[16]);
  }
  return out;
}
