/** Runs the import CLI on a file as an operator would, sampling the importer's peak RSS (Linux /proc). */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { RUN_TS } from '../../src/boot/run-ts.ts';

export interface CliImport {
  code: number;
  /** What the CLI printed on stdout. */
  report: string;
  /** The importer's peak resident set, MB. */
  peakMb: number;
}

export async function runImportCli(
  root: string,
  file: string,
  env: NodeJS.ProcessEnv,
  extraArgs: string[] = [],
  /** Called when the CLI first prints: its summary, printed once the import has committed. */
  onOutput?: () => void,
): Promise<CliImport> {
  const child = spawn(
    process.execPath,
    [...RUN_TS, 'src/cli/import.ts', '--db', 'Demo', ...extraArgs, file],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let peakMb = 0;
  let report = '';
  child.stdout.on('data', (d) => {
    if (report === '') onOutput?.();
    report += d;
  });
  const poll = setInterval(() => {
    try {
      const kb = Number(
        /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0,
      );
      peakMb = Math.max(peakMb, kb / 1024);
    } catch {
      /* exited */
    }
  }, 200);
  const code = await new Promise<number>((r) => child.on('exit', (c) => r(c ?? 1)));
  clearInterval(poll);
  return { code, report, peakMb };
}
