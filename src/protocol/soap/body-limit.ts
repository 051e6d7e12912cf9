/**
 * A SOAP body's size limit, known before the body is read in full: its first bytes name the operation
 * (sniff.ts), routed as the binding routes it with the call's headers. Only ProcessRequest's may pass
 * the usual limit.
 */
import type { OperationDef } from '../../operations/table.ts';
import type { HttpCall } from '../binding.ts';
import { soapRouter } from './binding.ts';
import { operationElementOf } from './sniff.ts';

/** `limitOf` gives an operation's limit (undefined: not known yet, the usual limit). */
export function soapBodyLimit(nsBase: string, limitOf: (op: OperationDef | undefined) => number) {
  const routedOperation = soapRouter(nsBase);
  return (head: string, headers: HttpCall['headers']): number => {
    const f = operationElementOf(head);
    return limitOf(f && routedOperation(f.version, headers['content-type'], headers.soapaction, f));
  };
}
