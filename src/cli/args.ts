/** Tiny `--name value` / `--flag` parser for the CLIs (node:util parseArgs with our error text). */
import { parseArgs } from 'node:util';

export function cliArgs<
  T extends Record<string, { type: 'string' | 'boolean'; default?: string | boolean }>,
>(options: T, usage: string) {
  try {
    return parseArgs({ options, allowPositionals: true });
  } catch (e) {
    console.error(`${(e as Error).message}\nusage: ${usage}`);
    process.exit(2);
  }
}
