// Pays a Warden stake with the real x402 v1 client: x402-fetch wrapping fetch, a viem wallet
// client (a local account) as the signer. Reads a JSON object on stdin:
//   {url, token, privateKey, rpc, maxValue}
// POSTs url with the bearer token; x402-fetch answers the 402 by signing the v1 `exact` offer and
// retrying with X-PAYMENT. Prints {status, body, paymentResponse} (the decoded X-PAYMENT-RESPONSE).
import { readFileSync } from "node:fs";
import { createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { wrapFetchWithPayment, decodeXPaymentResponse } from "x402-fetch";

const input = JSON.parse(readFileSync(0, "utf8"));
const wallet = createWalletClient({
  account: privateKeyToAccount(input.privateKey),
  chain: baseSepolia,
  transport: http(input.rpc),
});
const pay = wrapFetchWithPayment(fetch, wallet, BigInt(input.maxValue));
const res = await pay(input.url, {
  method: "POST",
  headers: { Authorization: "Bearer " + input.token },
});
const text = await res.text();
const header = res.headers.get("x-payment-response");
console.log(JSON.stringify({
  status: res.status,
  body: text ? JSON.parse(text) : null,
  paymentResponse: header ? decodeXPaymentResponse(header) : null,
}));
