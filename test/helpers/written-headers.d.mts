export function writtenHeaders(head: string | undefined | null): Record<string, string>;
