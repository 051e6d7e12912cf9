/** A value of a file the contact does not keep, and why: the import report names each per column. */
export interface NotKept {
  column: string;
  why: string;
}
/** The reasons a value is not kept, as the report gives them. */
export const WHY = {
  noField: 'no field for it',
  photo: 'photos are not stored',
  secondAddress: 'a second address (a contact keeps one)',
  label: 'only phones, emails and the address keep labels',
} as const;
