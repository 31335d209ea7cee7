import { integer } from './parsers.ts';

/** The variables bounding connections: timeouts, shutdown, open connections and change streams. */
export const CONNECTION_VARIABLES = {
  REQUEST_TIMEOUT_SECONDS: {
    default: '10',
    description: 'Longest time to receive a whole request (headers and body) before a 408',
    parse: integer(1, 3600),
  },
  HEADERS_TIMEOUT_SECONDS: {
    default: '5',
    description: 'Longest time to receive the request headers before a 408',
    parse: integer(1, 3600),
  },
  SHUTDOWN_GRACE_SECONDS: {
    default: '10',
    description: 'On SIGTERM or SIGINT, how long in-flight requests may take before their connections are closed',
    parse: integer(0, 3600),
  },
  MAX_CONNECTIONS: {
    default: '4096',
    description: 'Open connections in total; more are closed at once',
    parse: integer(1, 1000000),
  },
  MAX_CONNECTIONS_PER_ADDRESS: {
    default: '256',
    description:
      'Open connections per peer address; not applied behind a proxy (`TRUST_PROXY`), whose connections all ' +
      'share its address',
    parse: integer(1, 1000000),
  },
  CHANGE_STREAMS: {
    default: '2000',
    description:
      'Live change streams (`GET /api/v1/changes` as server-sent events) open at once; more are answered 503',
    parse: integer(1, 100000),
  },
  CHANGE_STREAMS_PER_ADDRESS: {
    default: '8',
    description: 'Change streams one address may hold open; more are answered 429',
    parse: integer(1, 100000),
  },
  CHANGE_STREAMS_PER_ACCOUNT: {
    default: '4',
    description: 'Change streams one account may hold open (from any address); more are answered 429',
    parse: integer(1, 100000),
  },
  CHANGE_HEARTBEAT_SECONDS: {
    default: '15',
    description: 'How often an idle change stream sends a comment line, so that proxies keep it open',
    parse: integer(1, 15),
  },
};
