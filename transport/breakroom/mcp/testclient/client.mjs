// A real MCP client for Break Room's MCP door (breakroom-protocol-v0.md "MCP"), written with the
// official TypeScript SDK (@modelcontextprotocol/sdk, Streamable HTTP). The Go test
// cmd/arena/breakroom_mcp_node_test.go starts `arena serve` and runs:
//   ARENA_URL=http://127.0.0.1:PORT ARENA_HOST=breakroom.localhost node client.mjs
// It lists the tools, reads the games and the Dilemma's rules, joins (the server makes its key),
// plays every turn through wait_for_turn and make_move to match_end, sends feedback, is refused a
// misfit argument with -32602 and a move after the end with the protocol's code, pays a paid join
// through the development wallet and leaves with its stake refunded, joins again with its key
// passed back and leaves the queue. It prints one line "mcp-testclient: ok <json>" on
// success; on any failure it prints the reason and exits 1.
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const base = process.env.ARENA_URL;
const hostHeader = process.env.ARENA_HOST;
if (!base || !hostHeader) fail("ARENA_URL and ARENA_HOST must be set");

function fail(msg) {
  console.error("mcp-testclient: FAIL: " + msg);
  process.exit(1);
}

function check(cond, msg) {
  if (!cond) fail(msg);
}

// siteFetch is fetch to the server at base with the Break Room site's Host header (the site is
// picked by Host; Node's fetch will not send another Host than the URL's).
function siteFetch(url, init = {}) {
  const u = new URL(url);
  const headers = { host: hostHeader };
  new Headers(init.headers || {}).forEach((v, k) => (headers[k] = v));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, method: init.method || "GET", path: u.pathname + u.search, headers },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) h.set(k, Array.isArray(v) ? v.join(", ") : v);
          const body = res.statusCode === 202 || res.statusCode === 204 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status: res.statusCode, headers: h }));
        });
      },
    );
    req.on("error", reject);
    if (init.body) req.write(init.body);
    req.end();
  });
}

const client = new Client({ name: "arena-breakroom-mcp-testclient", version: "0.1.0" });
const transport = new StreamableHTTPClientTransport(new URL("/mcp", base), { fetch: siteFetch });

// call runs one tool and returns { text, isError, obj } (obj: the text as JSON, else null).
async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  const text = (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
  let obj = null;
  try {
    obj = JSON.parse(text);
  } catch {}
  return { text, isError: res.isError === true, obj };
}

try {
  await client.connect(transport);
  check((client.getInstructions() || "").includes("wait_for_turn"), "the instructions do not name wait_for_turn");
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort().join(",");
  check(
    names === "confirm_payment,get_rules,join_game,leave_queue,list_games,make_move,send_feedback,wait_for_turn",
    "tools: " + names,
  );

  const games = await call("list_games", {});
  const dilemma = games.isError ? undefined : games.obj.games.find((g) => g.id === "dilemma");
  check(dilemma !== undefined, "list_games: " + games.text);
  check(dilemma.min_players === 3 && dilemma.max_players >= 4, "dilemma table sizes: " + games.text);
  const rules = await call("get_rules", { game: "dilemma" });
  check(!rules.isError && rules.text.includes("cooperate") && rules.text.includes("defect"), "get_rules: " + rules.text.slice(0, 200));

  const joined = await call("join_game", { game: "dilemma", agent_name: "SDK Tools" });
  check(!joined.isError && joined.obj.type === "queued", "join_game: " + joined.text);
  const { session, secret_key: sk, pubkey } = joined.obj;
  check(/^[0-9a-f]{64}$/.test(sk) && /^[0-9a-f]{64}$/.test(pubkey) && session, "join_game key/session: " + joined.text);

  // The match: answer every turn, alternating cooperate and defect, until match_end.
  let moves = 0, queued = 0, end = null, match = null, seat = null;
  const until = Date.now() + 100000;
  while (!end && Date.now() < until) {
    const st = await call("wait_for_turn", { session, wait_ms: 10000 });
    check(!st.isError, "wait_for_turn: " + st.text);
    if (st.obj.type === "queued") {
      queued++;
      continue;
    }
    check(st.obj.type === "state", "wait_for_turn answered " + st.text);
    match = st.obj.match_id;
    seat = st.obj.seat;
    if (st.obj.status === "your_turn") {
      const legal = st.obj.legal_actions.map((a) => a.action).join(",");
      check(legal === "cooperate,defect", "legal_actions: " + legal);
      check(st.obj.deadline_ms > 0 && st.obj.visible_state.game === "dilemma", "your_turn state: " + st.text);
      const action = moves % 2 === 0 ? "cooperate" : "defect";
      const mv = await call("make_move", { session, match_id: match, round: st.obj.round, turn: st.obj.turn, action, message: "from the SDK" });
      check(!mv.isError && mv.obj.ok === true, "make_move: " + mv.text);
      moves++;
    } else if (st.obj.status === "ended") {
      end = st.obj.match_end;
    }
  }
  check(end, "no match_end in 100 s");
  check(moves > 0 && end.match_id === match, `match_end after ${moves} moves: ` + JSON.stringify(end));
  const mine = end.ranking.find((r) => r.pubkey === pubkey);
  check(mine && mine.seat === seat && Number.isInteger(mine.rank) && typeof mine.score === "number", "my ranking row: " + JSON.stringify(end.ranking));
  check(end.ranking.every((r) => Number.isInteger(r.rank) && Number.isInteger(r.seat) && r.pubkey), "ranking rows: " + JSON.stringify(end.ranking));
  check(end.feedback && end.feedback.max_chars === 2000, "match_end.feedback: " + JSON.stringify(end.feedback));

  const fb = await call("send_feedback", { session, text: "Played through the MCP SDK: clear rules.", rating: 5 });
  check(!fb.isError && fb.obj.type === "feedback_received" && fb.obj.match_id === match, "send_feedback: " + fb.text);
  const fb2 = await call("send_feedback", { session, match_id: match, text: "Second note replaces the first.", rating: 4 });
  check(!fb2.isError, "send_feedback again: " + fb2.text);

  // A move after the end: the protocol's code as a tool error; the turn numbers are the last state's.
  const late = await call("make_move", { session, match_id: match, round: 0, turn: 0, action: "cooperate" });
  check(late.isError && late.obj.type === "error" && late.obj.code === "match_over" && late.obj.match_id === match, "late move: " + late.text);

  // A misfit argument is a JSON-RPC -32602 before dispatch.
  let misfit = null;
  try {
    await client.callTool({ name: "wait_for_turn", arguments: { session, Wait_ms: 5 } });
  } catch (e) {
    misfit = e;
  }
  check(misfit && misfit.code === -32602, "a case-variant argument: " + (misfit ? misfit.code + " " + misfit.message : "accepted"));

  // confirm_payment on a free table's session: no paid join_game answered it.
  const pay = await call("confirm_payment", { session });
  check(pay.isError && pay.obj.code === "unauthorized", "confirm_payment on a free session: " + pay.text);

  // A paid join on the development wallet (test sats): payment_required with the invoice and a
  // pay_ session; not_paid before paying; paid through the dev route; queued; leave_queue gives
  // the stake back in full.
  const pj = await call("join_game", { game: "dilemma", secret_key: sk, stake_sats: 10 });
  check(!pj.isError && pj.obj.type === "payment_required" && pj.obj.stake_sats === 10 && pj.obj.bolt11.startsWith("lnbcrt") &&
    pj.obj.session.startsWith("pay_") && pj.obj.payment_hash.length === 64, "paid join_game: " + pj.text);
  const confirm = { session: pj.obj.session, payment_hash: pj.obj.payment_hash, payout_lnaddr: "mcp-sdk@example.com" };
  const early = await call("confirm_payment", confirm);
  check(early.isError && early.obj.code === "not_paid", "confirm_payment before paying: " + early.text);
  const paid = await siteFetch(new URL("/dev/lightning/pay", base).href, { method: "POST", body: JSON.stringify({ bolt11: pj.obj.bolt11 }) });
  check(paid.status === 200, "dev route: " + paid.status + " " + (await paid.text()));
  const q = await call("confirm_payment", confirm);
  check(!q.isError && q.obj.type === "queued" && q.obj.stake_sats === 10 && q.obj.session && q.obj.session !== pj.obj.session, "confirm_payment: " + q.text);
  const refunded = await call("leave_queue", { session: q.obj.session });
  check(!refunded.isError && refunded.obj.type === "left" && refunded.obj.refunded_sats === 10, "leave the paid queue: " + refunded.text);

  // The key passed back is the same identity; then leave the queue.
  const again = await call("join_game", { game: "dilemma", secret_key: sk });
  check(!again.isError && again.obj.pubkey === pubkey && again.obj.secret_key === undefined, "join_game again: " + again.text);
  const left = await call("leave_queue", { session: again.obj.session });
  check(!left.isError && left.obj.type === "left" && left.obj.reason === "left", "leave_queue: " + left.text);

  await client.close();
  console.log("mcp-testclient: ok " + JSON.stringify({ match_id: match, pubkey, moves, queued, rank: mine.rank, players: end.ranking.length }));
} catch (e) {
  fail(String(e && e.stack ? e.stack : e));
}
