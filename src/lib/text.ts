/**
 * `text` with its first letter in upper case.
 *
 * @example
 * capitalize('actor'); // 'Actor'
 */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
