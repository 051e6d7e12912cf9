/**
 * Reading a selection from a request's parameters (CONTRACT.md §5): Query, Filters, Sort and Fields,
 * validated into the plain Selection that search/select/ evaluates. Errors name the member to fix.
 */
import { DEFAULT_LIMITS, type Limits } from '../config.ts';
import { fail, pathOf } from '../errors.ts';
import { field, type FieldDef } from '../fields/schema.ts';
import type { Checkpoint } from '../security/deadline.ts';
import { ARITY, OPERATORS, OPERATORS_BY_TYPE, type Filter } from '../search/select/filters.ts';
import type { Selection } from '../search/select/selection.ts';
import type { SortKey } from '../search/select/sort.ts';
import type { JsonObject } from './params.ts';

const PARAM = 'StringOfJSONParameters';

/** Reads `Filters` (already shape-checked as objects with Field, Op, Values/Value). */
export function readFilters(raw: unknown, path: string, limits: Limits): Filter[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw))
    throw fail('InvalidValue', `${path} must be a list of filters.`, { parameter: PARAM, path });
  if (raw.length > limits.filters)
    throw fail('InvalidValue', `${path} holds more than ${limits.filters} filters.`, {
      parameter: PARAM,
      path,
    });
  return raw.map((f, i) => readFilter(f, pathOf(path, i), limits));
}

function readFilter(raw: unknown, path: string, limits: Limits): Filter {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw fail(
      'InvalidFilter',
      `${path} must be an object like {"Field":"Country","Op":"In","Values":["US"]}.`,
      { parameter: PARAM, path },
    );
  }
  const m = new Map(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), [k, v] as const]));
  for (const [k, [orig]] of m) {
    if (!['field', 'op', 'values', 'value'].includes(k)) {
      throw fail(
        'UnknownMember',
        `Unknown member "${orig}" at ${pathOf(path, orig)}; a filter has Field, Op and Values.`,
        { parameter: PARAM, path: pathOf(path, orig) },
      );
    }
  }
  const name = m.get('field')?.[1];
  if (typeof name !== 'string')
    throw fail('MissingParameter', `${pathOf(path, 'Field')} is required.`, {
      parameter: PARAM,
      path: pathOf(path, 'Field'),
    });
  const def = field(name);
  if (!def || !def.filterable) {
    throw fail('UnknownField', `${pathOf(path, 'Field')}: "${name}" is not a filterable field.`, {
      parameter: PARAM,
      path: pathOf(path, 'Field'),
    });
  }
  const opRaw = m.get('op')?.[1] ?? 'Eq';
  const op = OPERATORS.find(
    (o) => typeof opRaw === 'string' && o.toLowerCase() === opRaw.toLowerCase(),
  );
  if (!op || !OPERATORS_BY_TYPE[def.type].includes(op)) {
    throw fail(
      'InvalidFilter',
      `${pathOf(path, 'Op')}: "${String(opRaw)}" is not allowed for ${def.name}; use one of ${OPERATORS_BY_TYPE[def.type].join(', ')}.`,
      { parameter: PARAM, path: pathOf(path, 'Op') },
    );
  }
  const single = m.get('value')?.[1];
  const list = m.get('values')?.[1];
  const values = list !== undefined ? list : single !== undefined ? [single] : [];
  const vpath = pathOf(path, list !== undefined ? 'Values' : 'Value');
  if (!Array.isArray(values))
    throw fail('InvalidValue', `${vpath} must be a list.`, { parameter: PARAM, path: vpath });
  if (values.length > limits.valuesPerFilter)
    throw fail('InvalidValue', `${vpath} holds more than ${limits.valuesPerFilter} values.`, {
      parameter: PARAM,
      path: vpath,
    });
  const [min, max] = ARITY[op];
  if (values.length < min || values.length > max) {
    const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min}–${max}`;
    throw fail('InvalidFilter', `${vpath}: ${op} takes ${want} value(s), got ${values.length}.`, {
      parameter: PARAM,
      path: vpath,
    });
  }
  const strings = values.map((v, i) => {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      throw fail('InvalidValue', `${vpath}[${i}] must be a string or number.`, {
        parameter: PARAM,
        path: `${vpath}[${i}]`,
      });
    }
    const s = String(v);
    if (def.type === 'Date' && Number.isNaN(Date.parse(s))) {
      throw fail(
        'InvalidValue',
        `${vpath}[${i}]: "${s}" is not a date (use ISO 8601, e.g. 2024-12-31).`,
        { parameter: PARAM, path: `${vpath}[${i}]` },
      );
    }
    return s;
  });
  return { field: def, op, values: strings };
}

export function readQuery(raw: unknown, path: string, limits: Limits): string {
  if (raw === undefined) return '';
  if (typeof raw !== 'string')
    throw fail('InvalidValue', `${path} must be a string.`, { parameter: PARAM, path });
  if (raw.length > limits.textChars)
    throw fail('InvalidValue', `${path} is longer than ${limits.textChars} characters.`, {
      parameter: PARAM,
      path,
    });
  return raw;
}

export function readSort(raw: unknown, path: string): SortKey[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw))
    throw fail('InvalidValue', `${path} must be a list like [{"Field":"LastName","Dir":"Asc"}].`, {
      parameter: PARAM,
      path,
    });
  return raw.map((s, i) => {
    const at = pathOf(path, i);
    if (s === null || typeof s !== 'object')
      throw fail('InvalidValue', `${at} must be an object with Field and Dir.`, {
        parameter: PARAM,
        path: at,
      });
    let name: unknown,
      dir: unknown = 'Asc';
    for (const [k, v] of Object.entries(s)) {
      if (k.toLowerCase() === 'field') name = v;
      else if (k.toLowerCase() === 'dir') dir = v;
      else
        throw fail(
          'UnknownMember',
          `Unknown member "${k}" at ${pathOf(at, k)}; a sort has Field and Dir.`,
          { parameter: PARAM, path: pathOf(at, k) },
        );
    }
    const def = typeof name === 'string' ? field(name) : undefined;
    if (!def || !def.sortable)
      throw fail(
        'UnknownField',
        `${pathOf(at, 'Field')}: "${String(name)}" is not a sortable field.`,
        { parameter: PARAM, path: pathOf(at, 'Field') },
      );
    if (typeof dir !== 'string' || !['asc', 'desc'].includes(dir.toLowerCase())) {
      throw fail('InvalidValue', `${pathOf(at, 'Dir')} must be Asc or Desc.`, {
        parameter: PARAM,
        path: pathOf(at, 'Dir'),
      });
    }
    return { field: def, desc: dir.toLowerCase() === 'desc' };
  });
}

export function readFields(raw: unknown, path: string): FieldDef[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw))
    throw fail('InvalidValue', `${path} must be a list of field names.`, {
      parameter: PARAM,
      path,
    });
  return raw.map((n, i) => {
    const def = typeof n === 'string' ? field(n) : undefined;
    if (!def)
      throw fail('UnknownField', `${pathOf(path, i)}: "${String(n)}" is not a field.`, {
        parameter: PARAM,
        path: pathOf(path, i),
      });
    return def;
  });
}

/**
 * Reads the selection members of a request's parameters: Query, Filters, Sort and Fields, matched
 * case-insensitively; other members are left to the caller (ProcessRequest's Format, Name …).
 * Used by the search operations and by ProcessRequest (ExportContacts, SaveSearch).
 * @example readSelection({ query: 'smith', Filters: [{ Field: 'Country', Op: 'In', Values: ['US'] }] })
 */
export function readSelection(
  params: JsonObject,
  path?: string,
  limits?: Limits,
  budget?: Checkpoint,
): Selection;
/** @deprecated form kept while callers move over: `readSelection(members, limits, path)`. */
export function readSelection(
  params: JsonObject,
  limits: Limits,
  path?: string,
  budget?: Checkpoint,
): Selection;
export function readSelection(
  params: JsonObject,
  a?: string | Limits,
  b?: string | Limits,
  budget?: Checkpoint,
): Selection {
  const path = typeof a === 'string' ? a : typeof b === 'string' ? b : '$';
  const limits =
    (typeof a === 'object' && a ? a : typeof b === 'object' && b ? b : undefined) ?? DEFAULT_LIMITS;
  const m = pick(params, SELECTION_MEMBERS);
  // A path is made only for a member given (every type-ahead request reads its selection here).
  const at = (name: string, v: unknown) => (v === undefined ? '' : pathOf(path, name));
  const fields = readFields(m.Fields, at('Fields', m.Fields));
  return {
    query: readQuery(m.Query, at('Query', m.Query), limits),
    filters: readFilters(m.Filters, at('Filters', m.Filters), limits),
    sort: readSort(m.Sort, at('Sort', m.Sort)),
    ...(fields ? { fields } : {}),
    ...(budget ? { budget } : {}),
  };
}

const SELECTION_MEMBERS = ['Query', 'Filters', 'Sort', 'Fields'] as const;
const SELECTION_LOWER = new Map(SELECTION_MEMBERS.map((n) => [n.toLowerCase(), n]));

/** The selection's members (case-insensitive), keyed by their canonical names; null counts as absent. */
function pick(params: JsonObject, names: typeof SELECTION_MEMBERS): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (params === null || typeof params !== 'object') return out;
  for (const k in params) {
    const v = params[k];
    if (v === null || v === undefined) continue;
    const name = names.includes(k as never) ? k : SELECTION_LOWER.get(k.toLowerCase());
    if (name) out[name] = v;
  }
  return out;
}
