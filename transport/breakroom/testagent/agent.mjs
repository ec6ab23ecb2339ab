// An independent Break Room agent (breakroom-protocol-v0.md), written only from the protocol
// page: a Nostr key from nostr-tools, the challenge signed with BIP-340 over sha256(utf8(nonce))
// (@noble/curves, the curve library nostr-tools itself uses), and either a WebSocket (the `ws`
// package) or the HTTP fallback (node:http). It joins one game, plays every turn it is given
// from legal_actions, optionally drops its connection mid-match and comes back with a fresh
// signed join, and checks the match_end it gets. The Go tests start it as a subprocess.
//
// Usage:
//   node agent.mjs --base http://127.0.0.1:8080 --game dilemma [--transport ws|http]
//     [--host breakroom.localhost] [--name NAME] [--spoilers] [--sk HEX]
//     [--reconnect-after N] [--probe-errors] [--probe-orders] [--survive-restart] [--timeout-s 120]
//
// --game diplomacy plays Diplomacy from the wire (diplomacy.mjs): press to chosen recipients,
// orders with moves, supports and convoys, and an order set the door refuses (illegal_move) is
// fixed and sent again. --probe-orders sends its first movement set with an order the door must
// refuse. It fails if it is shown a private message it neither wrote nor was sent.
//
// --survive-restart: a connection the server loses (a restart, a kill -9) is not a failure: the
// agent joins again with a fresh signed join until the server is back, and must be re-seated at
// the match and seat it had (a match that resumes); it says {"step":"moved"} after each move, so
// a test knows the match is under way.
// stdout: one JSON line per milestone ({"step":"seated",...}), then {"step":"done",...} with the
// match_end. Exit 0 when the match ended and every check held; 1 with {"step":"fail","why":...}.
import http from 'node:http';
import { generateSecretKey, getPublicKey, finalizeEvent, verifyEvent } from 'nostr-tools/pure';
import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import WebSocket from 'ws';
import { DiplomacyPlayer } from './diplomacy.mjs';

const args = parseArgs(process.argv.slice(2));
const base = new URL(args.base ?? 'http://127.0.0.1:8080');
const game = args.game ?? 'dilemma';
const transport = args.transport ?? 'ws';
const hostHeader = args.host ?? base.host;
const sk = args.sk ? hexToBytes(args.sk) : generateSecretKey();
const pubkey = getPublicKey(sk);
const reconnectAfter = args['reconnect-after'] ? Number(args['reconnect-after']) : 0;
const spoilers = Boolean(args.spoilers);
const survive = Boolean(args['survive-restart']);
const timeout = setTimeout(() => fail(`no match_end within ${args['timeout-s'] ?? 120} s`),
  1000 * Number(args['timeout-s'] ?? 120));

const seen = { turns: 0, moves: 0, events: 0, errors: [], reconnected: false, seat: null, match: null, probed: false };
const dip = game === 'diplomacy' ? new DiplomacyPlayer(pubkey) : null;
if (dip) { seen.diplomacy = dip.stats; seen.private_seen = 0; }

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const k = a.slice(2);
    if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[k] = argv[++i];
    else out[k] = true;
  }
  return out;
}

function say(obj) { process.stdout.write(JSON.stringify(obj) + '\n'); }

function fail(why) {
  say({ step: 'fail', why, pubkey, seen });
  process.exit(1);
}

// The join the protocol asks for: the nonce signed as sha256(utf8(nonce)), x-only key, hex.
function signedJoin(nonce) {
  const digest = sha256(new TextEncoder().encode(nonce));
  const sig = bytesToHex(schnorr.sign(digest, sk));
  const join = { type: 'join', v: 0, game, author_pubkey: pubkey, nonce, sig, spoilers };
  if (args.name) join.agent_name = args.name;
  return join;
}

// A move from legal_actions: the first action (or a random one), with the parameters its
// bounds ask for (breakroom-protocol-v0.md "legal_actions").
function chooseMove(yt) {
  const legal = yt.legal_actions;
  if (!Array.isArray(legal) || legal.length === 0) fail(`your_turn without legal_actions: ${JSON.stringify(yt)}`);
  if (!yt.visible_state || yt.visible_state.game !== game || typeof yt.visible_state.rules_version !== 'string') {
    fail(`visible_state lacks game/rules_version: ${JSON.stringify(yt.visible_state)}`);
  }
  if (dip) {
    let body;
    try { body = dip.plan(yt); } catch (e) { fail(String(e)); }
    if (args['probe-orders'] && !seen.orders_probed && body.action === 'orders' && yt.legal_actions[0].units && yt.legal_actions[0].removals === undefined) {
      const bad = dip.probe(yt.visible_state, body.orders);
      if (bad) { seen.orders_probed = true; body.orders = bad; }
    }
    return { type: 'move', v: 0, match_id: yt.match_id, round: yt.round, turn: yt.turn, ...body };
  }
  const pick = legal[(seen.turns * 7) % legal.length];
  const move = { type: 'move', v: 0, match_id: yt.match_id, round: yt.round, turn: yt.turn, action: pick.action };
  if (pick.min !== undefined) move.amount = pick.min;
  if (Array.isArray(pick.targets) && pick.targets.length) move.target = pick.targets[0];
  if (Array.isArray(pick.recipients) && pick.recipients.length) move.recipient = pick.recipients[0];
  if (['say', 'send', 'broadcast'].includes(pick.action)) move.message = 'hello from the test agent';
  return move;
}

// Checks the match_end the protocol describes, and signs its nostr_post with our own key.
function checkEnd(end) {
  if (end.type !== 'match_end') fail(`not a match_end: ${JSON.stringify(end)}`);
  if (!Number.isInteger(end.your_rank) || end.your_rank < 1) fail(`your_rank ${end.your_rank}`);
  if (!Array.isArray(end.ranking) || !end.ranking.some((r) => r.pubkey === pubkey)) fail('ranking does not name us');
  for (const r of end.ranking) {
    if (!Number.isInteger(r.rank) || !Number.isInteger(r.seat) || typeof r.pubkey !== 'string') fail(`ranking entry ${JSON.stringify(r)}`);
  }
  if (typeof end.replay_url !== 'string' || !end.replay_url.includes(end.match_id)) fail(`replay_url ${end.replay_url}`);
  const post = end.nostr_post;
  if (!post || post.kind !== 1 || typeof post.content !== 'string' || !Array.isArray(post.tags)) fail(`nostr_post ${JSON.stringify(post)}`);
  const n = end.your_rank;
  const ordinal = `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th')}`;
  const statesRank = new RegExp(`\\bI (won|lost|finished|placed|came)\\b|\\b${ordinal}\\b|#${n}\\b|\\brank(ed)? ${n}\\b`, 'i').test(post.content);
  if (!spoilers && statesRank) fail(`nostr_post states the result without spoilers: ${post.content}`);
  const ev = finalizeEvent({ kind: post.kind, created_at: Math.floor(Date.now() / 1000), tags: post.tags, content: post.content }, sk);
  if (!verifyEvent(ev) || ev.pubkey !== pubkey) fail('the nostr_post does not sign as a Nostr event');
  return ev.id;
}

// checkPrivate fails on a Diplomacy private message shown to a seat that neither wrote it nor
// is among its recipients (breakroom-games §6.5: who talked to whom is private until the end).
function checkPrivate(ev) {
  if (!ev || ev.type !== 'message_private') return;
  seen.private_seen++;
  if (ev.reveal !== 'end' || (ev.seat !== seen.seat && !(ev.to ?? []).includes(seen.seat))) {
    fail(`shown another seat's private press: ${JSON.stringify(ev)}`);
  }
}

function done(end) {
  const eventId = checkEnd(end);
  clearTimeout(timeout);
  say({ step: 'done', pubkey, transport, seen, match_end: end, nostr_event_id: eventId });
  process.exit(0);
}

// --- WebSocket ---------------------------------------------------------------------------

function wsURL() {
  const u = new URL('/v0/play', base);
  u.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  return u;
}

function playWS(isReconnect) {
  const ws = new WebSocket(wsURL(), { headers: { Host: hostHeader } });
  let dropping = false;
  let afterReseat = [];
  let lost = false;
  const onLost = (why) => {
    if (dropping || lost) return;
    if (!survive) fail(why);
    lost = true;
    say({ step: 'lost', why });
    setTimeout(() => playWS(true), 300);
  };
  ws.on('error', (e) => onLost(`socket error: ${e.message}`));
  ws.on('close', (code) => onLost(`socket closed by the server (${code}) before match_end`));
  const send = (m) => ws.send(JSON.stringify(m));
  ws.on('message', (data, isBinary) => {
    if (isBinary) fail('binary frame from the server');
    let m;
    try { m = JSON.parse(data.toString('utf8')); } catch { fail(`not JSON: ${data}`); }
    if (m.v !== 0) fail(`message without v:0: ${data}`);
    if (isReconnect && m.type !== 'challenge') afterReseat.push(m.type);
    switch (m.type) {
      case 'challenge':
        send(signedJoin(m.nonce));
        break;
      case 'queued':
        say({ step: 'queued', position: m.position });
        break;
      case 'seated':
        if (isReconnect && m.seat !== seen.seat) fail(`re-seated at ${m.seat}, was ${seen.seat}`);
        if (isReconnect && m.match_id !== seen.match) fail(`re-seated at ${m.match_id}, was ${seen.match}`);
        seen.seat = m.seat; seen.match = m.match_id;
        if (!Array.isArray(m.players) || !m.players.some((p) => p.pubkey === pubkey && typeof p.display_name === 'string')) {
          fail(`seated.players lacks us with a display_name: ${JSON.stringify(m.players)}`);
        }
        say({ step: isReconnect ? 'reseated' : 'seated', match_id: m.match_id, seat: m.seat, tier: m.tier, players: m.players.length });
        break;
      case 'state':
        if (isReconnect && afterReseat[0] !== 'seated') fail(`after a reconnect, ${afterReseat.join(',')}: seated must come first`);
        break;
      case 'your_turn': {
        // A your_turn may come again for a turn already answered (a reconnect restores the full
        // deadline and says so): one move per turn.
        const at = `${m.match_id}/${m.round}/${m.turn}`;
        if (seen.answered === at) break;
        seen.turns++;
        if (reconnectAfter && !seen.reconnected && seen.turns > reconnectAfter) {
          seen.reconnected = true;
          dropping = true;
          say({ step: 'dropping', turns: seen.turns });
          ws.terminate();
          setTimeout(() => playWS(true), 200);
          return;
        }
        if (args['probe-errors'] && !seen.probed) {
          seen.probed = true;
          send({ type: 'move', v: 0, match_id: m.match_id, round: m.round, turn: m.turn, action: 'no_such_action' });
        }
        seen.pending = chooseMove(m);
        send(seen.pending);
        seen.answered = at;
        seen.moves++;
        if (survive) say({ step: 'moved', round: m.round, turn: m.turn });
        break;
      }
      case 'event':
        seen.events++;
        if (dip) checkPrivate(m.event);
        break;
      case 'error':
        seen.errors.push(m.code);
        if (dip && m.code === 'illegal_move' && seen.pending?.action === 'orders') {
          seen.pending = { ...seen.pending, orders: dip.fix(seen.pending.orders, m.detail) };
          send(seen.pending);
          break;
        }
        if (!(args['probe-errors'] && m.code === 'illegal_move' && seen.errors.length === 1)) fail(`error from the server: ${JSON.stringify(m)}`);
        break;
      case 'match_end':
        dropping = true;
        ws.close();
        done(m);
        break;
      default:
        break;
    }
  });
}

// --- HTTP fallback -----------------------------------------------------------------------

function request(method, path, body, token) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = { Host: hostHeader, Accept: 'application/json' };
    if (payload) { headers['Content-Type'] = 'application/json'; headers['Content-Length'] = payload.length; }
    if (token) headers.Authorization = `Bearer ${token}`;
    const req = http.request({ host: base.hostname, port: base.port, method, path, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try { json = JSON.parse(text); } catch { return reject(new Error(`${method} ${path}: ${res.statusCode} not JSON: ${text}`)); }
        resolve({ status: res.statusCode, body: json });
      });
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// With --survive-restart, a request the server does not answer (connection refused or reset)
// is tried again until it is back.
async function call(method, path, body, token) {
  for (;;) {
    try {
      return await request(method, path, body, token);
    } catch (e) {
      if (!survive) throw e;
      say({ step: 'lost', why: String(e) });
      await sleep(300);
    }
  }
}

async function httpJoin() {
  const ch = await call('GET', '/v0/challenge');
  if (ch.status !== 200 || typeof ch.body.nonce !== 'string') fail(`challenge: ${ch.status} ${JSON.stringify(ch.body)}`);
  const j = await call('POST', '/v0/join', signedJoin(ch.body.nonce));
  if (j.status !== 200 || typeof j.body.token !== 'string') fail(`join: ${j.status} ${JSON.stringify(j.body)}`);
  return j.body;
}

async function playHTTP() {
  let joined = await httpJoin();
  let token = joined.token;
  while (joined.type !== 'seated') {
    const r = await call('GET', `/v0/join/${encodeURIComponent(token)}?wait=25000`, undefined, undefined);
    if (r.status !== 200) fail(`join poll: ${r.status} ${JSON.stringify(r.body)}`);
    joined = r.body;
    if (joined.type === 'left') fail(`left the queue: ${JSON.stringify(joined)}`);
  }
  seen.seat = joined.seat; seen.match = joined.match_id;
  say({ step: 'seated', match_id: joined.match_id, seat: joined.seat, tier: joined.tier, players: joined.players?.length });
  // A restarted server knows no token: join again, and be re-seated where we were.
  const rejoin = async () => {
    const again = await httpJoin();
    if (again.type !== 'seated' || again.seat !== seen.seat || again.match_id !== seen.match) fail(`rejoin after a restart: ${JSON.stringify(again)}`);
    say({ step: 'reseated', match_id: again.match_id, seat: again.seat });
    return again.token;
  };
  for (;;) {
    let s = await call('GET', `/v0/matches/${joined.match_id}/state?wait=25000`, undefined, token);
    if (survive && s.status === 401) { token = await rejoin(); continue; }
    if (s.status !== 200) fail(`state: ${s.status} ${JSON.stringify(s.body)}`);
    const st = s.body;
    if (st.status === 'ended') return done(st.match_end);
    if (st.status !== 'your_turn') continue;
    seen.turns++;
    if (reconnectAfter && !seen.reconnected && seen.turns > reconnectAfter) {
      seen.reconnected = true;
      say({ step: 'dropping', turns: seen.turns });
      const again = await httpJoin();
      if (again.type !== 'seated' || again.seat !== seen.seat || again.match_id !== seen.match) fail(`rejoin mid-match: ${JSON.stringify(again)}`);
      token = again.token;
      say({ step: 'reseated', match_id: again.match_id, seat: again.seat });
      continue;
    }
    const mv = chooseMove({ ...st, match_id: joined.match_id });
    const { type, v, match_id, ...body } = mv;
    if (args['probe-errors'] && !seen.probed) {
      seen.probed = true;
      const bad = await request('POST', `/v0/matches/${joined.match_id}/move`, { ...body, action: 'no_such_action' }, token);
      if (bad.status !== 400 || bad.body.code !== 'illegal_move') fail(`illegal move: ${bad.status} ${JSON.stringify(bad.body)}`);
      seen.errors.push(bad.body.code);
    }
    let r = await call('POST', `/v0/matches/${joined.match_id}/move`, body, token);
    while (dip && body.action === 'orders' && r.status === 400 && r.body.code === 'illegal_move') {
      seen.errors.push(r.body.code);
      body.orders = dip.fix(body.orders, r.body.detail);
      r = await call('POST', `/v0/matches/${joined.match_id}/move`, body, token);
    }
    if (survive && r.status === 401) { token = await rejoin(); continue; }
    if (r.status !== 200 || r.body.ok !== true) {
      // The deadline may have passed while we chose: a stale turn is the server being right.
      if (r.body && (r.body.code === 'stale_turn' || r.body.code === 'not_your_turn')) { seen.errors.push(r.body.code); continue; }
      fail(`move: ${r.status} ${JSON.stringify(r.body)}`);
    }
    seen.moves++;
    if (survive) say({ step: 'moved', round: st.round, turn: st.turn });
  }
}

if (transport === 'ws') playWS(false);
else if (transport === 'http') playHTTP().catch((e) => fail(String(e)));
else fail(`unknown transport ${transport}`);
