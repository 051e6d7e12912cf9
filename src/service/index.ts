/**
 * The service: a plain OperationRequest in, an OperationResult out (CONTRACT.md §5–6).
 * Checks the wire parameters every operation shares, parses StringOfJSONParameters, runs the
 * operation function and renders its document for the requested AsType.
 */
import type { Limits } from '../config.ts';
import { fail } from '../errors.ts';
import { operation } from '../operations/table.ts';
import { parseAsType, render, type AsType, type Document } from '../render/as-type.ts';
import { authorize } from '../security/api-keys.ts';
import { Deadline } from '../security/deadline.ts';
import type { DatabaseRegistry } from '../database/database.ts';
import type { Diagnostics, OperationContext } from './context.ts';
import { HANDLERS } from './handlers.ts';
import { parseJsonParameters, parseLargeJsonParameters } from './params.ts';
import { LargeText } from '../large-text/large-text.ts';
import { ResultCache } from './result-cache.ts';
import type { OperationRequest, OperationResult, ParamValue, Service } from './types.ts';

export interface ServiceDeps {
  databases: DatabaseRegistry;
  limits: Limits;
  /** Monotonic milliseconds for request deadlines; tests inject one to expire a budget at a chosen step. */
  clock?: () => number;
}

/** CONTRACT §5: DBName and AsType are required and non-empty in every binding. */
function required(name: 'DBName' | 'AsType', value: ParamValue): string {
  if (value === null || value.trim() === '') {
    throw fail('MissingParameter', `Missing parameter: ${name}.`, { parameter: name });
  }
  return value;
}

export function createService(deps: ServiceDeps): Service {
  const cache = new ResultCache(
    deps.limits.resultCacheEntries,
    deps.limits.resultCacheChars,
    deps.limits.resultCacheOnRepeat,
  );
  return {
    stats: () => ({ resultCache: cache.stats() }),
    down: () => deps.databases.down(),
    loading: () => deps.databases.loading(),
    databaseStats: async () => {
      const all = deps.databases.names().map((name) => deps.databases.find(name)?.stats?.());
      return (await Promise.all(all)).filter((d) => d !== undefined);
    },
    async invoke(req: OperationRequest): Promise<OperationResult> {
      const started = performance.now();
      const op = operation(req.op);
      if (!op) throw fail('UnknownOperation', `${req.op} is not an operation of this service.`);
      const dbName = op.params.includes('DBName') ? required('DBName', req.DBName) : undefined;
      const asType: AsType | undefined = op.params.includes('AsType')
        ? parseAsType(required('AsType', req.AsType))
        : undefined;
      // A read's result depends on the database, the operation, the parameters as sent and AsType only
      // (not on the caller, who is authorised on every call); InternalUse reports this call's time, so it runs.
      const text = req.StringOfJSONParameters;
      const cacheable =
        op.result === 'document' &&
        cache.enabled &&
        asType !== 'InternalUse' &&
        !(text instanceof LargeText); // only ProcessRequest's may be that large
      const key = cacheable
        ? `${op.name}\u0000${asType}\u0000${dbName ?? ''}\u0000${(text as string | null) ?? ''}`
        : '';
      // A hit skips the JSON parse: the same parameters, database and AsType passed every check when the
      // entry was stored, so only the caller's authorisation is left. Misses (an unknown database too)
      // go through the checks below in their usual order.
      const known = dbName === undefined ? undefined : deps.databases.find(dbName);
      const catchingUp = known?.sync(req.arrival); // others' writes first (worker processes, the import CLI)
      if (catchingUp) await catchingUp;
      // Read before any work: a write that lands while this call runs makes what it stores stale at once.
      const version = known?.version ?? 0;
      const cached =
        cacheable && (dbName === undefined || known) ? cache.get(key, version) : undefined;
      if (cached) {
        authorize(req.caller.key, 'read', known?.name);
        return cached; // the very object stored: bindings reuse what they encoded from it
      }
      const deadline = new Deadline(deps.limits.requestMs, deps.clock);
      // A big one (an import's content) is parsed by the large-text worker: searches go on meanwhile.
      const params =
        text instanceof LargeText
          ? await parseLargeJsonParameters(text, deps.limits.jsonDepth)
          : parseJsonParameters(text, deps.limits.jsonDepth);
      const db =
        dbName === undefined
          ? undefined
          : (known ?? deps.databases.get(dbName, { parameter: 'DBName' }));
      // The six document operations read; ProcessRequest authorises per request (scope of its definition).
      if (op.result === 'document') authorize(req.caller.key, 'read', db?.name);
      const diag: Diagnostics = {};
      const ctx: OperationContext = {
        op,
        params,
        db,
        databases: deps.databases,
        limits: deps.limits,
        caller: req.caller,
        diag,
        deadline,
      };
      // ProcessRequest is the service's one write path: the cache steps aside while it runs.
      if (op.result === 'string')
        return {
          kind: 'text',
          text: await cache.duringWrite(async () => (await HANDLERS[op.name](ctx)) as string),
        };
      const ticket = cache.ticket();
      const out = await HANDLERS[op.name](ctx);
      // The Internal member's maker only for InternalUse: a closure a request otherwise.
      const internal =
        asType === 'InternalUse'
          ? () => ({
              ElapsedMicroseconds: Math.round((performance.now() - started) * 1000),
              Backend: db?.backend ?? null,
              Database: db?.name ?? null,
              Candidates: diag.candidates ?? null,
              Request: diag.request ?? params,
            })
          : undefined;
      const result = render(op.name, asType!, out as Document, internal);
      if (cacheable) cache.set(key, version, ticket, result);
      return result;
    },
  };
}
