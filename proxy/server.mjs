// One REST proxy for every bot process: @discordjs/proxy over @discordjs/rest.
//
// Each process sends its REST calls here (DISCORD_API_BASE=http://HOST:PORT/api/v10) and the
// proxy forwards them to Discord, keeping one set of rate-limit buckets for all of them. Alone,
// each process would only know its own share of a bucket and run into 429s the others caused.
//
//   node server.mjs [--host 127.0.0.1] [--port 8080] [--upstream https://discord.com/api]
//                   [--reject-when-limited]
//
// By default a request that would exceed a bucket waits in the proxy. With --reject-when-limited
// the proxy answers 429 with a Retry-After header instead (no Via header, so discord.py alone
// would take it for a Cloudflare ban; the bot retries it, see bot/client/ratelimits.py).
//
// The first line on stdout is "listening on http://HOST:PORT" (--port 0 picks a free port); then
// one line per request: "METHOD PATH STATUS", with interaction and webhook tokens left out.

import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

import { proxyRequests } from '@discordjs/proxy';
import { REST } from '@discordjs/rest';

const { values: options } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '8080' },
    upstream: { type: 'string', default: 'https://discord.com/api' },
    'reject-when-limited': { type: 'boolean', default: false },
  },
});

const rest = new REST({
  api: options.upstream,
  rejectOnRateLimit: options['reject-when-limited'] ? () => true : null,
});
const forward = proxyRequests(rest);

// Interaction and webhook tokens are path segments (/interactions/ID/TOKEN/callback,
// /webhooks/ID/TOKEN/...); they are credentials, so they are never logged.
const TOKEN = /\/(interactions|webhooks)\/(\d+)\/[^/]+/g;

const server = createServer((request, response) => {
  response.on('finish', () => {
    const path = (request.url ?? '').split('?')[0].replace(TOKEN, '/$1/$2/:token');
    console.log(`${request.method} ${path} ${response.statusCode}`);
  });
  // proxyRequests sets the status of every answer it knows (Discord's, a rate limit, a
  // timeout) and ends the response itself, even when it rethrows what it doesn't know (Discord
  // out of reach): 502 is what such a request should answer, so it is the default.
  response.statusCode = 502;
  forward(request, response).catch((error) => {
    console.error(`upstream failed: ${error}`);
  });
});

server.listen(Number(options.port), options.host, () => {
  const { address, port } = server.address();
  console.log(`listening on http://${address}:${port}`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
