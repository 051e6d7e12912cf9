/** How the operations' JSON documents (documents.ts) and their shapes (shapes.ts) describe a member. */

/** A bound that is a setting: the member of `limits` (config) that holds it. */
export type LimitName = 'textChars' | 'limit' | 'pageSize' | 'filters' | 'valuesPerFilter';
export type Bound = number | LimitName;

/**
 * A JSON member. `type` is how the docs write it and how the test checks it: `string`, `integer`,
 * `boolean`, `any`, `object` (members named by data, e.g. a row's field names), a shape of SHAPES
 * (shapes.ts) by name, or any of these followed by `[]` for a list.
 */
export interface Member {
  readonly name: string;
  readonly type: string;
  readonly description: string;
  /** May be `null` in an answer. */
  readonly nullable?: boolean;
  /** May be absent from an answer (absent and null are the same in a request). */
  readonly optional?: boolean;
  readonly required?: boolean;
  readonly default?: string | number | boolean;
  /** Request members: the most characters (string) or the largest value (integer) accepted. */
  readonly maxLength?: Bound;
  readonly min?: number;
  readonly max?: Bound;
  /**
   * Request members the shared selection readers check (Query, Filters, Sort, Fields, Facets:
   * service/read-selection.ts): the operation takes them as sent and hands them over.
   */
  readonly selection?: boolean;
}

export interface Shape {
  readonly description: string;
  readonly members: readonly Member[];
}
