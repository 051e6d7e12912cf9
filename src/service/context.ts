/** What every operation function receives: parsed parameters and its dependencies, no wire facts. */
import type { Limits } from '../config.ts';
import type { OperationDef } from '../operations/table.ts';
import type { Deadline } from '../security/deadline.ts';
import type { ContactDatabase, DatabaseRegistry } from '../database/database.ts';
import type { JsonObject } from './params.ts';
import type { Caller } from './types.ts';

/** Filled by operations for AsType=InternalUse (CONTRACT §6). */
export interface Diagnostics {
  candidates?: number;
  /** The request after defaults and normalisation. */
  request?: unknown;
}

export interface OperationContext {
  readonly op: OperationDef;
  /** StringOfJSONParameters, parsed (member names as sent; read them with readMembers). */
  readonly params: JsonObject;
  /** The database named by DBName, for the operations that take one. */
  readonly db?: ContactDatabase;
  readonly databases: DatabaseRegistry;
  readonly limits: Limits;
  readonly caller: Caller;
  readonly diag: Diagnostics;
  /**
   * This request's time budget (limits.requestMs, started when the service got the request): call
   * `deadline.check()` inside long loops and `deadline.checkNow()` before a store write.
   */
  readonly deadline: Deadline;
}
