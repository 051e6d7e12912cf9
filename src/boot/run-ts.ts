/**
 * The node flags that run this project's TypeScript as `npm start` does: tsx, then the hook that
 * makes its kept names cheap (cheap-names-hooks.mjs). For the code that spawns the server or a CLI.
 */
import { fileURLToPath } from 'node:url';

export const CHEAP_NAMES = fileURLToPath(new URL('./cheap-names.mjs', import.meta.url));
export const RUN_TS: readonly string[] = ['--import', 'tsx', '--import', CHEAP_NAMES];
