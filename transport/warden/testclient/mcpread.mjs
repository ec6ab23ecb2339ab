// Pays Warden MCP reads with the real clients: the MCP TypeScript SDK (@modelcontextprotocol/sdk,
// Streamable HTTP) calls each tool; a metered call answered isError with a v2 PaymentRequired in
// structuredContent is paid as warden-games §8.3 says: x402Client from @x402/core creates the
// PaymentPayload and the call is retried with it in _meta["x402/payment"]. The scheme is Circle's
// (registerBatchScheme from @circle-fin/x402-batching, ExactEvmScheme from @x402/evm as its
// fallback) with scheme "batching", or @x402/evm's generic ExactEvmScheme alone with "exact"
// (which signs a Gateway entry under the token's domain, §10.11). viem's local account signs.
// Reads a JSON object on stdin: {url, privateKey, scheme, network, asset, calls: [{tool, args, pay}]}; with pay
// false a call is made once, unpaid. Prints [{first, paid, payload}] per call: the first result,
// the paid retry's result (null when not retried) and the payload sent.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm";
import { registerBatchScheme } from "@circle-fin/x402-batching/client";
import { privateKeyToAccount } from "viem/accounts";

const input = JSON.parse(readFileSync(0, "utf8"));
const account = privateKeyToAccount(input.privateKey);
const payer = new x402Client();
// Arc USDC is not one of @x402/evm's default assets: a Contender names it (§10.11).
payer.setSpendControls({ allowedAssets: [{ network: input.network, asset: input.asset }] });
if (input.scheme === "batching") {
  registerBatchScheme(payer, { signer: account, fallbackScheme: new ExactEvmScheme(account) });
} else {
  payer.register("eip155:*", new ExactEvmScheme(account));
}

const mcp = new Client({ name: "warden-test", version: "1.0.0" });
await mcp.connect(new StreamableHTTPClientTransport(new URL(input.url)));
const out = [];
for (const call of input.calls) {
  const first = await mcp.callTool({ name: call.tool, arguments: call.args ?? {} });
  const required = first.structuredContent;
  if (!call.pay || !first.isError || !required || required.x402Version !== 2) {
    out.push({ first, paid: null, payload: null });
    continue;
  }
  const payload = await payer.createPaymentPayload(required);
  const paid = await mcp.callTool({ name: call.tool, arguments: call.args ?? {}, _meta: { "x402/payment": payload } });
  out.push({ first, paid, payload });
}
await mcp.close();
console.log(JSON.stringify(out));
