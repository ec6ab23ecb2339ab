// A small DOTDOTDOT agent written with the official A2A JS SDK (@a2a-js/sdk 0.3.x, A2A v0.3),
// used by arena's Go tests as an independent implementation of the agent side of §4-§7.
//
// Configuration (environment):
//   AGENT_ID    the agent's CAIP-19 id (its Badge)                                   (required)
//   AGENT_SEED  64 hex: the ed25519 seed of the card's signing_key                    (required)
//   AGENT_NAME  the card's name (default "Ada")
//   ARENA_KEY   "ed25519:<64 hex>": the arena instance's key, resolved from the chain by the
//               caller (§4.3). When set, every envelope's sig is verified and a forged one is
//               refused (the task is answered "rejected"); when unset nothing is verified.
//   PORT        listen port on 127.0.0.1 (default 0: any free port)
//   CARD_FILE   when set, GET /card.json serves this file's bytes as they are on disk, read at
//               each request (the §4.2 card the test wrote with chain/badge's card writer and
//               anchored on chain; it can be written after the agent started, once the port is
//               known)
//
// It prints one line "testagent: listening on http://127.0.0.1:PORT" when ready.
// Routes: POST /a2a (JSON-RPC), GET /.well-known/agent-card.json and /.well-known/agent.json
// (the same bytes: an A2A AgentCard that is also the §4.2 protocol card), GET /card.json
// (CARD_FILE), GET /stats, and POST /control {arena_key?, join?: {url, table, format?}}:
// arena_key sets the key envelopes are verified with (resolved from the chain by the caller);
// join signs a join (§4.3) with the card key, posts it to url, and answers
// {status, reply, sent} (sent: the exact signed body, so a test can replay it).
//
// Play: scouting → an empty answer; talk → one public line; commit → one signed commitment
// ({always:true}, 1 CCD, due this turn) to the next live seat, with me.next_seq as seq.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import express from 'express';
import { v4 as uuidv4 } from 'uuid';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const BADGE = 'https://docs.concordium.com/a2a-extensions/concordium-badge/v1';

const agentId = process.env.AGENT_ID;
const seedHex = process.env.AGENT_SEED || '';
if (!agentId || !/^[0-9a-f]{64}$/.test(seedHex)) {
  console.error('testagent: AGENT_ID and AGENT_SEED (64 hex) are required');
  process.exit(2);
}
const name = process.env.AGENT_NAME || 'Ada';
const privateKey = crypto.createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seedHex, 'hex')]),
  format: 'der', type: 'pkcs8',
});
const publicRaw = crypto.createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
function parseKey(s) {
  const m = /^ed25519:([0-9a-f]{64})$/.exec(s || '');
  if (!m) return null;
  return crypto.createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(m[1], 'hex')]),
    format: 'der', type: 'spki',
  });
}
let arenaKey = null;
if (process.env.ARENA_KEY) {
  arenaKey = parseKey(process.env.ARENA_KEY);
  if (!arenaKey) { console.error('testagent: ARENA_KEY must be ed25519:<64 hex>'); process.exit(2); }
}

// JCS (RFC 8785) for the JSON this agent sees: ES number and string serialisation are JCS's,
// and Array.prototype.sort on strings orders by UTF-16 code units as JCS does.
function jcs(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(jcs).join(',') + ']';
  return '{' + Object.keys(v).filter((k) => v[k] !== undefined).sort()
    .map((k) => JSON.stringify(k) + ':' + jcs(v[k])).join(',') + '}';
}
const digestOf = (obj) => crypto.createHash('sha256').update(jcs(obj), 'utf8').digest();

function verifyEnvelope(env) {
  if (!arenaKey) return true;
  const m = /^ed25519:([0-9a-f]{128})$/.exec(env.sig || '');
  if (!m) return false;
  const { sig, ...unsigned } = env;
  return crypto.verify(null, digestOf(unsigned), arenaKey, Buffer.from(m[1], 'hex'));
}

function signObject(c) {
  const sig = crypto.sign(null, digestOf(c), privateKey);
  return { ...c, sig: 'ed25519:' + sig.toString('hex') };
}
const signCommitment = signObject;

// join signs {agent, table, issued_at, nonce, format?} and posts it (§4.3, §5.7).
async function join({ url, table, format }) {
  const obj = { agent: agentId, table, issued_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    nonce: crypto.randomBytes(16).toString('hex') };
  if (format) obj.format = format;
  const sent = JSON.stringify(signObject(obj));
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: sent });
  const text = await r.text();
  let reply;
  try { reply = JSON.parse(text); } catch { reply = text; }
  return { status: r.status, reply, sent };
}

const stats = { calls: 0, answered: 0, forged: 0, commitments: 0, extensionHeader: 0, phases: {} };

// answerFor is this agent's move for one envelope (§4: the answer echoes round, turn, phase, seat).
function answerFor(env) {
  const a = { round: env.round, turn: env.turn, phase: env.phase, seat: env.seat };
  if (env.exchange !== undefined) a.exchange = env.exchange;
  const st = env.state || {};
  if (env.phase === 'talk') {
    a.messages = [{ type: 'public', text: `${name} here, exchange ${env.exchange}: I keep my word.`, tone: 'offer' }];
  } else if (env.phase === 'commit') {
    const me = st.me || {};
    const others = (st.agents || []).filter((x) => x.seat !== env.seat && x.alive);
    if (others.length > 0 && (me.unlocked ?? 0) >= 500000) {
      const payee = others[(env.turn - 1) % others.length];
      a.commitments = [signCommitment({
        v: 1, round: env.round, turn: env.turn, seq: me.next_seq ?? 1, payer: agentId, payee: payee.agent,
        amount: 1000000, condition: { always: true }, due: env.turn,
      })];
      stats.commitments++;
    }
  }
  return a;
}

class Executor {
  async execute(ctx, bus) {
    stats.calls++;
    const part = (ctx.userMessage.parts || []).find((p) => p.kind === 'data');
    const env = part && part.data;
    const taskId = ctx.taskId;
    const contextId = ctx.contextId;
    if (!env || !verifyEnvelope(env)) {
      if (env) stats.forged++;
      console.error(`testagent: refused an envelope (${env ? 'bad sig' : 'no data part'})`);
      bus.publish({ kind: 'task', id: taskId, contextId, status: { state: 'rejected', timestamp: new Date().toISOString() } });
      bus.finished();
      return;
    }
    stats.phases[env.phase] = (stats.phases[env.phase] || 0) + 1;
    stats.answered++;
    bus.publish({ kind: 'message', messageId: uuidv4(), role: 'agent', contextId, parts: [{ kind: 'data', data: answerFor(env) }] });
    bus.finished();
  }
  cancelTask = async () => {};
}

const app = express();
const server = app.listen(Number(process.env.PORT || 0), '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  // One card: an A2A AgentCard (name, url, protocolVersion, skills, capabilities.extensions)
  // carrying the §4.2 members (v, agent, kind, signing_key, endpoint) and the Badge extension.
  const card = {
    v: 1, agent: agentId, name, kind: 'player',
    signing_key: 'ed25519:' + Buffer.from(publicRaw).toString('hex'),
    endpoint: `${base}/a2a`,
    description: 'arena test agent (A2A JS SDK)', protocolVersion: '0.3.0', version: '0.1.0',
    url: `${base}/a2a`, preferredTransport: 'JSONRPC',
    defaultInputModes: ['application/json'], defaultOutputModes: ['application/json'],
    skills: [{ id: 'dotdotdot', name: 'DOTDOTDOT Blitz', description: 'Plays a Blitz seat', tags: ['game'] }],
    capabilities: {
      streaming: false, pushNotifications: false,
      extensions: [{ uri: BADGE, description: 'Verified by Concordium badge — on-chain agent identity in a CIS-8004 registry', required: false, params: { tokenAddress: agentId } }],
    },
  };
  const cardBytes = Buffer.from(JSON.stringify(card));
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new Executor());
  const serveCard = (_req, res) => res.type('application/json').send(cardBytes);
  app.get('/.well-known/agent-card.json', serveCard);
  app.get('/.well-known/agent.json', serveCard);
  app.get('/stats', (_req, res) => res.json(stats));
  if (process.env.CARD_FILE) {
    app.get('/card.json', async (_req, res) => {
      try {
        res.type('application/json').send(await fs.readFile(process.env.CARD_FILE));
      } catch (e) {
        res.status(404).send('no card yet');
      }
    });
  }
  app.post('/control', express.json(), async (req, res) => {
    const b = req.body || {};
    if (b.arena_key !== undefined) {
      const k = parseKey(b.arena_key);
      if (!k) return res.status(400).json({ error: 'arena_key must be ed25519:<64 hex>' });
      arenaKey = k;
    }
    if (b.join) {
      try {
        return res.json(await join(b.join));
      } catch (e) {
        return res.status(502).json({ error: String(e) });
      }
    }
    res.json({ ok: true });
  });
  app.use('/a2a', (req, _res, next) => {
    if ((req.get('x-a2a-extensions') || '').includes(BADGE)) stats.extensionHeader++;
    next();
  });
  app.use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  console.log(`testagent: listening on ${base}`);
});
