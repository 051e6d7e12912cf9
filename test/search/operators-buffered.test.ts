/**
 * The operator, sort and facet cases again with every column's values in the buffer form (no shared
 * ids for equal values), the form nearly-unique columns take at scale: results must not depend on it.
 */
import { TABLE_TUNING } from '../../src/search/table/dictionary.ts';

TABLE_TUNING.mappedMax = 1;
await import('./operators.test.ts');
