// A real MCP client for arena's chat seat (§4.5), written with the official TypeScript SDK
// (@modelcontextprotocol/sdk, Streamable HTTP). The Go test transport/dotdotdot/chatseat/nodeclient_test.go
// starts `arena serve` and runs: ARENA_URL=http://127.0.0.1:PORT node client.mjs
// It lists the tools, is refused a token-shaped name, registers, plays a whole Practice round (short format, chat pace) through
// next_move / talk / commit / pass to the result, checks my_record, hosts a table (code and
// link) and leaves it, and prints one line
// "mcp-testclient: ok <json>" on success; on any failure it prints the reason and exits 1.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const base = process.env.ARENA_URL;
if (!base) fail("ARENA_URL is not set");

function fail(msg) {
  console.error("mcp-testclient: FAIL: " + msg);
  process.exit(1);
}

function check(cond, msg) {
  if (!cond) fail(msg);
}

const client = new Client({ name: "arena-mcp-testclient", version: "0.1.0" });
const transport = new StreamableHTTPClientTransport(new URL("/mcp", base));

// call runs one tool and returns { text, isError }.
async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  const text = (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
  return { text, isError: res.isError === true };
}

const HEAD = /^Round (T-\d+), turn (\d+), (scouting|talk|commit)(?: \(exchange (\d+)\))?/;

try {
  await client.connect(transport);
  const instructions = client.getInstructions() || "";
  check(instructions.includes("two or three numbered moves"), "the server instructions do not ask for numbered moves");

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  const want = ["commit", "feedback", "host_table", "join_table", "leave_table", "list_tables", "my_record",
    "next_move", "pass", "play_practice", "register", "start_table", "talk"];
  check(JSON.stringify(names) === JSON.stringify(want), "tools are " + names.join(","));

  // A name shaped like a walk-in token is refused as POST /v1/walkin refuses it (its public
  // page by name would be a token in a URL).
  const tokenName = await call("register", { name: "w_" + "A".repeat(24) });
  check(tokenName.isError && tokenName.text.includes("bad_request") && tokenName.text.includes("must not look like a walk-in token"),
    "register with a token-shaped name: " + tokenName.text);

  const name = "Node" + Math.floor(Math.random() * 1e6);
  const reg = await call("register", { name, model: "mcp-testclient" });
  check(!reg.isError, "register: " + reg.text);
  const token = (reg.text.match(/w_[A-Za-z0-9_-]{43}/) || [])[0];
  check(token, "no token in: " + reg.text);

  // A refusal is a tool error saying what is legal now.
  const early = await call("join_table", { token, table: "walkin" });
  check(early.isError && early.text.includes("not_yet") && early.text.includes("play_practice"), "walk-in before Practice: " + early.text);

  const join = await call("play_practice", { token, format: "short", pace: "chat" });
  check(!join.isError && /Seated: round T-\d+, seat 1/.test(join.text), "play_practice: " + join.text);
  const round = join.text.match(/round (T-\d+)/)[1];

  const seen = { scouting: 0, talk: 0, commit: 0, said: 0, promised: 0, passed: 0, stale: 0 };
  let result = "";
  for (let i = 0; i < 80 && !result; i++) {
    const nm = await call("next_move", { token, wait: 20 });
    check(!nm.isError, "next_move: " + nm.text);
    if (nm.text.includes("is over and revealed")) {
      result = nm.text;
      break;
    }
    const h = nm.text.match(HEAD);
    if (!h) {
      check(nm.text.startsWith("Waiting"), "next_move neither a move, waiting nor the result: " + nm.text);
      continue;
    }
    const [, r, turnS, phase, exS] = h;
    const turn = Number(turnS);
    check(r === round, `move for ${r}, joined ${round}`);
    check(nm.text.includes("You are seat 1"), "the brief does not name the seat: " + nm.text);
    check(nm.text.includes("The table"), "the brief does not show the table: " + nm.text);
    seen[phase]++;
    let ans;
    if (phase === "talk" && Number(exS) === 1) {
      ans = await call("talk", { token, round: r, turn, exchange: Number(exS), messages: [
        { text: `Turn ${turn}: I back whoever backs me.`, tone: "offer" },
        { text: "You and me, 5 CCD each way?", to: 2, tone: "ask" }] });
      if (!ans.isError) seen.said++;
    } else if (phase === "commit" && turn === 1) {
      ans = await call("commit", { token, round: r, turn, commitments: [
        { payee: 2, chips: 5, due: 2, condition: { always: true } }] });
      if (!ans.isError) seen.promised++;
    } else {
      const a = { token, round: r, turn, phase };
      if (exS) a.exchange = Number(exS);
      ans = await call("pass", a);
      if (!ans.isError) seen.passed++;
    }
    check(!ans.isError, `${phase} answer refused: ${ans.text}`);
    if (phase === "talk" && Number(exS) === 1 && turn === 1) {
      // The same move again is stale now: refused as a tool error naming next_move.
      const again = await call("pass", { token, round: r, turn, phase, exchange: 1 });
      check(again.isError && again.text.includes("next_move"), "a second answer to one move: " + again.text);
      seen.stale++;
    }
  }
  check(result, "no result after 80 polls: " + JSON.stringify(seen));
  check(result.includes("this was the slow version") && result.includes("Claude Code, ChatGPT work mode") &&
    result.includes("full live Free play"), "the result lacks the closing lines: " + result);
  check(result.includes("The reveal: the mole was seat"), "the result lacks the reveal: " + result);
  check(seen.scouting === 1 && seen.talk === 6 && seen.commit === 3, "moves seen: " + JSON.stringify(seen));

  const rec = await call("my_record", { token });
  check(!rec.isError, "my_record: " + rec.text);
  const recJSON = JSON.parse(rec.text.slice(rec.text.indexOf("{")));
  check(recJSON.name === name && recJSON.rounds === 1 && recJSON.practice === 1, "record: " + rec.text);
  check(recJSON.last && recJSON.last[0] && recJSON.last[0].round === round, "record lacks the round: " + rec.text);

  // A hosted table through the same connector: a code, and the link to its page on this site.
  const host = await call("host_table", { token, format: "short" });
  const hm = host.text.match(/code ([A-Z0-9]{4}), short\. Hand your friends the link (\S+) /);
  check(!host.isError && hm && hm[2] === new URL("/t/" + hm[1], base).href, "host_table: " + host.text);
  const tables = await call("list_tables", { token });
  check(tables.text.includes("code " + hm[1] + ", short, hosted by " + name), "list_tables: " + tables.text);
  const left = await call("leave_table", { token });
  check(!left.isError, "leave_table: " + left.text);

  console.log("mcp-testclient: ok " + JSON.stringify({ round, name, seen, net: recJSON.net }));
  await client.close();
  process.exit(0);
} catch (e) {
  fail(e && e.stack ? e.stack : String(e));
}
