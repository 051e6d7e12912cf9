export const BACKGROUND_NICE: number;
export function nicer(by: number): void;
