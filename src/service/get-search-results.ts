/**
 * GetSearchResults (CONTRACT.md §5): the search. Total is exact; `Next` is an opaque keyset cursor
 * (the last row's sort key), so deep paging stays stable while the data changes.
 */
import { fail } from '../errors.ts';
import { field, type FieldDef } from '../fields/schema.ts';
import type { Document } from '../render/as-type.ts';
import type { OperationContext } from './context.ts';
import { readMembers } from './params.ts';
import { requestMembers } from './request-members.ts';
import { facetCounts } from '../search/select/facets.ts';
import { fieldValues } from '../search/select/filters.ts';
import { evaluate } from '../search/select/selection.ts';
import { compareKeys } from '../search/select/sort.ts';
import { readFields, readSelection } from './read-selection.ts';
import { resolveView } from './views.ts';

const PARAM = 'StringOfJSONParameters';

function encodeCursor(key: (string | number)[], signature: string): string {
  return Buffer.from(JSON.stringify({ k: key, s: signature })).toString('base64url');
}

function decodeCursor(cursor: string, signature: string): (string | number)[] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      k: (string | number)[];
      s: string;
    };
    if (Array.isArray(v.k) && v.s === signature) return v.k;
  } catch {
    /* fall through */
  }
  throw fail(
    'InvalidValue',
    '$.After is not a cursor of this search (use the Next of the same Query, Filters and Sort).',
    { parameter: PARAM, path: '$.After' },
  );
}

export function getSearchResults(ctx: OperationContext): Document {
  const p = readMembers(ctx.params, requestMembers('GetSearchResults', ctx.limits));
  const db = ctx.db!;
  const view = resolveView(db, p.View as string | undefined);
  const saved = view.saved;
  const sel = readSelection(
    {
      Query: p.Query ?? saved?.Query,
      Filters: p.Filters ?? saved?.Filters,
      Sort: p.Sort ?? saved?.Sort,
    },
    ctx.limits,
    undefined,
    ctx.deadline,
  );
  const fields: FieldDef[] = readFields(p.Fields, '$.Fields') ?? view.fields;
  const facetFields = (readFields(p.Facets, '$.Facets') ?? []).map((f, i) => {
    if (!f.facetable)
      throw fail('UnknownField', `$.Facets[${i}]: "${f.name}" is not a facetable field.`, {
        parameter: PARAM,
        path: `$.Facets[${i}]`,
      });
    return f;
  });
  const pageSize = (p.PageSize as number | undefined) ?? 25;
  const page = (p.Page as number | undefined) ?? 1;
  const ev = evaluate(db.index, sel, p.After === undefined ? page * pageSize : undefined);
  const signature = JSON.stringify([
    sel.query,
    sel.filters.map((f) => [f.field.name, f.op, f.values]),
    sel.sort.map((s) => [s.field.name, s.desc]),
  ]);
  let start = (page - 1) * pageSize;
  if (p.After !== undefined) {
    const after = decodeCursor(p.After as string, signature);
    let lo = 0,
      hi = ev.ords.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(ev.keyAt(mid), after, sel, ev.relevance) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const slice = ev.ords.slice(start, start + pageSize);
  const idx = db.index;
  const names = fields.some((f) => f.name === 'ContactId')
    ? fields
    : [field('ContactId')!, ...fields];
  idx.readAhead(
    slice,
    names.map((f) => f.name),
    false,
  );
  const rows = slice.map((ord) => {
    const c = idx.view(ord); // a row reads its header fields only
    const row: Record<string, unknown> = {};
    for (const f of names) {
      const v = fieldValues(c, f);
      row[f.name] = f.type === 'List' ? v : (v[0] ?? null);
    }
    return row;
  });
  const last = slice[slice.length - 1];
  ctx.diag.candidates = ev.candidates;
  ctx.diag.request = {
    Query: sel.query,
    Filters: sel.filters.map((f) => ({ Field: f.field.name, Op: f.op, Values: f.values })),
    Sort: sel.sort.map((s) => ({ Field: s.field.name, Dir: s.desc ? 'Desc' : 'Asc' })),
    Page: page,
    PageSize: pageSize,
    View: view.name,
  };
  return {
    Total: ev.total,
    Page: p.After !== undefined ? null : page,
    PageSize: pageSize,
    Next:
      last !== undefined && start + pageSize < ev.total
        ? encodeCursor(ev.keyAt(start + slice.length - 1), signature)
        : null,
    Headers: names.map((f) => f.name),
    Rows: rows,
    Facets: facetFields.length ? facetCounts(db.index, sel, facetFields) : [],
  };
}
