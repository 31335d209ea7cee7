import qrcode from 'qrcode-generator';
import type { Config } from '../config/env.ts';
import { MAX_DELAY_MS } from './simulation.ts';

/** Modules of light margin around the code, as the QR standard asks (a scanner finds the code by it). */
const QUIET_ZONE = 4;

/**
 * `text` as a QR code drawn with block characters, two rows of modules per line. The light
 * modules are the ones drawn: a terminal's text is light on dark by default, so a phone sees
 * dark modules on a light square.
 *
 * @example
 * qrText('http://192.168.1.20:3000');
 * // '█████████████…\n██ ▄▄▄▄▄ █▀…' (17 lines)
 */
export function qrText(text: string): string {
  const code = qrcode(0, 'M');
  code.addData(text);
  code.make();
  const size = code.getModuleCount();
  const light = (row: number, column: number) => {
    const inside = row >= 0 && row < size && column >= 0 && column < size;
    return !inside || !code.isDark(row, column);
  };
  const lines: string[] = [];
  for (let row = -QUIET_ZONE; row < size + QUIET_ZONE; row += 2) {
    let line = '';
    for (let column = -QUIET_ZONE; column < size + QUIET_ZONE; column++) {
      const top = light(row, column);
      const bottom = row + 1 < size + QUIET_ZONE && light(row + 1, column);
      line += top && bottom ? '█' : top ? '▀' : bottom ? '▄' : ' ';
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/**
 * What a teacher needs at the start of a class (`CLASSROOM=on`): the addresses to give
 * students, the first as a QR code, that nothing needs the internet, and what the class may do.
 *
 * @example
 * classroomBanner(serverUrls(server, '0.0.0.0'), config);
 * // 'classroom mode: students open http://192.168.1.20:3000 …'
 */
export function classroomBanner(
  { local, network: addresses }: { local: string; network: readonly string[] },
  config: Config,
): string {
  const limits = config.RATE_LIMIT
    ? `rate limits per address, for a class behind one: ${config.RATE_LIMIT_ANONYMOUS} requests without a token, ` +
      `${config.AUTH_RATE_LIMIT} to /api/v1/auth/*, per ${config.RATE_LIMIT_WINDOW_SECONDS} s`
    : 'rate limits: off';
  const closing = [
    'nothing needs the internet: the catalog, the API reference and GraphiQL are all served by this machine',
    `simulated latency and failures are on: add ?_delay=<ms> (0 to ${MAX_DELAY_MS}) or ?_fail=` +
      `<status> to any request (docs/classroom.md)`,
    limits,
  ];
  const [first] = addresses;
  if (first === undefined) {
    const where =
      `classroom mode: no address on a network to give students (listening on ${local}, HOST=${config.HOST}); ` +
      `connect this machine to the room's Wi-Fi or cable, leave HOST unset and start again`;
    return [where, ...closing].join('\n');
  }
  return [
    `classroom mode: give students this ` +
      `address${addresses.length > 1 ? ' (one per network: the one of the network they are on)' : ''}:`,
    ...addresses.map((url) => `  ${url}`),
    `${first} as a QR code:`,
    qrText(first),
    ...closing,
  ].join('\n');
}
