/** GetRequestSupport (CONTRACT.md §5): what ProcessRequest accepts, from the same definitions it validates against. */
import { fail } from '../errors.ts';
import type { Document } from '../render/as-type.ts';
import type { OperationContext } from './context.ts';
import { readMembers } from './params.ts';
import { requestMembers } from './request-members.ts';
import { fileDescription, REQUESTS, requestDef } from './requests/definitions.ts';

export function getRequestSupport(ctx: OperationContext): Document {
  const p = readMembers(ctx.params, requestMembers('GetRequestSupport', ctx.limits));
  const name = p.Request as string | undefined;
  const defs = name === undefined ? REQUESTS : [requestDef(name)];
  if (defs[0] === undefined) {
    throw fail(
      'UnknownRequest',
      `$.Request: "${name}" is not a request; use one of ${REQUESTS.map((r) => r.Request).join(', ')}.`,
      { parameter: 'StringOfJSONParameters', path: '$.Request' },
    );
  }
  return {
    Requests: defs.map((d) => ({
      Request: d!.Request,
      Description: d!.Description,
      Scope: d!.Scope,
      Parameters: d!.Parameters.map((x) => ({
        Name: x.Name,
        Type: x.Type,
        Required: x.Required,
        Default: x.Default ?? null,
        Values: x.Values ?? null,
        Description: x.Description,
      })),
      File: d!.File ? fileDescription(ctx.limits) : null,
    })),
  };
}
