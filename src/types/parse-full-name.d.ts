declare module 'parse-full-name' {
  export interface ParsedName {
    title: string;
    first: string;
    middle: string;
    last: string;
    nick: string;
    suffix: string;
    error: string[];
  }
  export function parseFullName(
    name: string,
    partToReturn?: string,
    fixCase?: boolean | number,
    stopOnError?: boolean,
    useLongLists?: boolean,
  ): ParsedName;
}
