/**
 * Which SOAP actions and which Body elements name which operation (docs/WIRE.md "Which requests name
 * which operation"). Besides what the WSDL declares, the names SOAP::Lite's usual styles send:
 * `uri('http://{base}/API/')` puts the operation element in that service namespace and sends
 * `uri#method` as SOAPAction, or `uri` + `method` with the common `on_action(sub { join '', @_ })`.
 * Each of these names exactly one operation, so the request is read by its local names.
 */
import {
  OPERATIONS,
  requestNamespace,
  soapAction,
  type OperationDef,
} from '../../operations/table.ts';

/** The namespace SOAP::Lite callers give as `uri`: `http://{namespace_base}/API/` (trailing slash). */
export function serviceNamespace(nsBase: string): string {
  return `http://${nsBase}/API/`;
}

/** The WSDL's soapAction first, then SOAP::Lite's `uri#method` and `uri` + `method`. */
export function actionsOf(op: OperationDef, nsBase: string): string[] {
  const uri = serviceNamespace(nsBase);
  return [...new Set([soapAction(op, nsBase), `${uri}#${op.name}`, `${uri}${op.name}`])];
}

/** The request element as the WSDL declares it, and the same local name in the service namespace. */
export function requestNamespacesOf(op: OperationDef, nsBase: string): string[] {
  return [requestNamespace(op, nsBase), serviceNamespace(nsBase)];
}

/** Lookups from an action and from `namespace \0 local name` to the operation; a name two operations share is a bug. */
export function operationNames(nsBase: string) {
  const byAction = new Map<string, OperationDef>();
  const byElement = new Map<string, OperationDef>();
  const add = (map: Map<string, OperationDef>, key: string, op: OperationDef) => {
    const had = map.get(key);
    if (had && had !== op) throw new Error(`${key} would name both ${had.name} and ${op.name}`);
    map.set(key, op);
  };
  for (const op of OPERATIONS as readonly OperationDef[]) {
    for (const a of actionsOf(op, nsBase)) add(byAction, a, op);
    for (const ns of requestNamespacesOf(op, nsBase)) add(byElement, elementKey(ns, op.name), op);
  }
  return { byAction, byElement };
}

export const elementKey = (uri: string, local: string) => `${uri}\u0000${local}`;
