/**
 * A process's memory as Linux reports it in /proc/PID/status, for the benches that print RSS, its
 * own (anonymous) part and its mapped files.
 */
import { readFileSync } from 'node:fs';

/** /proc/PID/status (`self`: this process's), or '' off Linux or once the process is gone. */
export function procStatus(pid: number | 'self' | undefined): string {
  try {
    return pid === undefined ? '' : readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}

/** A field of that text (VmRSS, RssAnon, RssFile, VmHWM, …) in bytes; 0 when absent. */
export function statusBytes(status: string, field: string): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) * 1024;
}
