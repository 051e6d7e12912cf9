/**
 * The readMembers spec of an operation's StringOfJSONParameters, from its description in
 * src/operations/documents.ts: what the docs say an operation accepts is what it checks.
 */
import type { Limits } from '../config.ts';
import { DOCUMENTS, type Bound, type Member } from '../operations/documents.ts';
import type { OperationName } from '../operations/table.ts';
import type { MemberSpec, ObjectSpec } from './params.ts';

const bound = (b: Bound | undefined, limits: Limits) => (typeof b === 'string' ? limits[b] : b);

function specOf(m: Member, limits: Limits): MemberSpec {
  // Selection members are checked by the shared readers (service/read-selection.ts), which name what to fix.
  if (m.selection) return { type: 'any' };
  switch (m.type) {
    case 'string':
      return { type: 'string', required: m.required, maxLength: bound(m.maxLength, limits) };
    case 'integer':
      return { type: 'integer', required: m.required, min: m.min, max: bound(m.max, limits) };
    default:
      throw new Error(
        `documents.ts: request member ${m.name} has type ${m.type}, which readMembers cannot check`,
      );
  }
}

/** Built once per operation and Limits object: every request reads its members with the same spec. */
const built = new WeakMap<Limits, Map<string, ObjectSpec>>();

export function requestMembers(
  op: Exclude<OperationName, 'ProcessRequest'>,
  limits: Limits,
): ObjectSpec {
  let byOp = built.get(limits);
  if (!byOp) built.set(limits, (byOp = new Map()));
  let spec = byOp.get(op);
  if (!spec) {
    spec = Object.fromEntries(DOCUMENTS[op].request.map((m) => [m.name, specOf(m, limits)]));
    byOp.set(op, spec);
  }
  return spec;
}
