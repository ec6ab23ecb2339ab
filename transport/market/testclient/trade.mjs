// A whole trade between two Players through the Game Master market's A2A door, written with the
// official A2A JS SDK (@a2a-js/sdk 0.3.x client: ClientFactory, JSON-RPC transport), used by
// arena's Go tests (transport/market) as an independent client of the door.
//
// Configuration (environment):
//   MARKET_URL  the market site's origin; its Agent Card is read from
//               /.well-known/agent-card.json and names the /a2a endpoint          (required)
//   KEY_A       Ada's API key (Authorization: Bearer)                              (required)
//   KEY_B       Bo's API key                                                       (required)
//
// Each request is the text of one message part whose metadata.name is "request"; each answer is
// the text of the Message's part named "response", the response envelope byte for byte. The
// script enrols both, has Ada propose wood for credits, has Bo read and approve it, retries both
// commands, reads both Inventories and prints one JSON line:
//   {"players":[pa,pb], "holdings":{"a":{...},"b":{...}}, "status":..., "retriesSame":bool,
//    "responses":[every envelope text]}
// It exits 1 on any failure, saying why on stderr.
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import crypto from 'node:crypto';

const base = process.env.MARKET_URL;
const keys = { a: process.env.KEY_A, b: process.env.KEY_B };
if (!base || !keys.a || !keys.b) {
  console.error('trade: MARKET_URL, KEY_A and KEY_B are required');
  process.exit(2);
}

const responses = [];

async function clientFor(key) {
  const authFetch = (url, init = {}) => {
    const headers = new Headers(init.headers || {});
    headers.set('Authorization', `Bearer ${key}`);
    return fetch(url, { ...init, headers });
  };
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl: authFetch })],
  }));
  return factory.createFromUrl(base);
}

// ask sends one request and returns [envelope text, parsed envelope].
async function ask(client, request) {
  const result = await client.sendMessage({
    message: {
      kind: 'message', role: 'user', messageId: crypto.randomUUID(),
      parts: [{ kind: 'text', text: JSON.stringify(request), metadata: { name: 'request' } }],
    },
    configuration: { blocking: true },
  });
  if (result.kind !== 'message') throw new Error(`answer is a ${result.kind}, not a message`);
  const part = result.parts.find((p) => p.kind === 'text' && p.metadata && p.metadata.name === 'response');
  if (!part) throw new Error(`no response part: ${JSON.stringify(result)}`);
  responses.push(part.text);
  const env = JSON.parse(part.text);
  return [part.text, env];
}

function must(env, what) {
  if (env.protocolVersion !== 2 || env.ok !== true) throw new Error(`${what}: ${JSON.stringify(env)}`);
  return env.result;
}

function holdingsOf(result) {
  return Object.fromEntries(result.holdings.map((h) => [h.assetId, h.quantity]));
}

try {
  const ada = await clientFor(keys.a);
  const bo = await clientFor(keys.b);
  const pa = must((await ask(ada, { protocolVersion: 2, commandId: 'js-ada-enrol', action: 'enroll' }))[1], 'ada enrol').playerId;
  const pb = must((await ask(bo, { protocolVersion: 2, commandId: 'js-bo-enrol', action: 'enroll' }))[1], 'bo enrol').playerId;
  const expiresAt = new Date(Date.now() + 3600e3).toISOString();
  const propose = {
    protocolVersion: 2, commandId: 'js-ada-offer', action: 'proposeExchange', counterpartyPlayerId: pb,
    offered: [{ assetId: 'wood', quantity: 5 }], requested: [{ assetId: 'credits', quantity: 20 }], expiresAt,
  };
  const [proposedText, proposed] = await ask(ada, propose);
  const x = must(proposed, 'propose');
  const seen = must((await ask(bo, { protocolVersion: 2, action: 'getExchange', exchangeId: x.exchangeId }))[1], 'bo reads');
  if (seen.answeringPlayerId !== pb) throw new Error(`bo is not the one answering: ${JSON.stringify(seen)}`);
  const approve = {
    protocolVersion: 2, commandId: 'js-bo-approve', action: 'respondToExchange', exchangeId: seen.exchangeId,
    exchangeVersion: seen.exchangeVersion, termsHash: seen.termsHash, decision: 'approve',
  };
  const [settledText, settled] = await ask(bo, approve);
  const status = must(settled, 'approve').status;
  const retriesSame = (await ask(ada, propose))[0] === proposedText && (await ask(bo, approve))[0] === settledText;
  const a = holdingsOf(must((await ask(ada, { protocolVersion: 2, action: 'readInventory' }))[1], 'ada inventory'));
  const b = holdingsOf(must((await ask(bo, { protocolVersion: 2, action: 'readInventory' }))[1], 'bo inventory'));
  must((await ask(bo, { protocolVersion: 2, action: 'readStatement' }))[1], 'bo statement');
  console.log(JSON.stringify({ players: [pa, pb], holdings: { a, b }, status, retriesSame, responses }));
} catch (e) {
  console.error(`trade: ${e && e.stack ? e.stack : e}`);
  process.exit(1);
}
