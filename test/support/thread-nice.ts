/** The nice value of each of this process's threads, the main thread first (Linux: /proc/self/task). */
import { readdirSync, readFileSync } from 'node:fs';

export function niceOfThreads(): string[] {
  return readdirSync('/proc/self/task').map(
    (t) => readFileSync(`/proc/self/task/${t}/stat`, 'utf8').split(') ')[1].split(' ')[16],
  );
}
