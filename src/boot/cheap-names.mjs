/**
 * Registers cheap-names-hooks.mjs after tsx (so it sees tsx's output): `--import tsx --import
 * ./src/boot/cheap-names.mjs`, or, in a worker thread, `register()` of tsx/esm/api and then this.
 * docs/DEPENDENCIES.md "tsx" says why.
 */
import { register } from 'node:module';

register('./cheap-names-hooks.mjs', import.meta.url);
