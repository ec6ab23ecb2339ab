// Pays a Warden stake with the real x402 v2 client: @x402/fetch wrapping fetch, @x402/evm's
// ExactEvmScheme over a viem local account. Reads a JSON object on stdin:
//   {url, token, privateKey, network, asset}
// POSTs url with the bearer token; @x402/fetch answers the 402 by reading PAYMENT-REQUIRED,
// signing the `exact` offer and retrying with PAYMENT-SIGNATURE. The dev token is not one of
// @x402/evm's default assets, so spendControls.allowedAssets names it (as a Contender on Arc must
// for Arc USDC). Prints {status, body, paymentResponse} (the decoded PAYMENT-RESPONSE).
import { readFileSync } from "node:fs";
import { privateKeyToAccount } from "viem/accounts";
import { wrapFetchWithPaymentFromConfig, decodePaymentResponseHeader } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm";

const input = JSON.parse(readFileSync(0, "utf8"));
const account = privateKeyToAccount(input.privateKey);
const pay = wrapFetchWithPaymentFromConfig(fetch, {
  schemes: [{ network: input.network, client: new ExactEvmScheme(account) }],
  spendControls: { allowedAssets: [{ network: input.network, asset: input.asset }] },
});
const res = await pay(input.url, {
  method: "POST",
  headers: { Authorization: "Bearer " + input.token },
});
const text = await res.text();
const header = res.headers.get("payment-response");
console.log(JSON.stringify({
  status: res.status,
  body: text ? JSON.parse(text) : null,
  paymentResponse: header ? decodePaymentResponseHeader(header) : null,
}));
