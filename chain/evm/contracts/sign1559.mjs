// Signs an EIP-1559 transaction with viem's signTransaction, for chain/evm's cross-check that
// DynamicFeeTx encodes and signs what a real wallet library does. Reads one JSON object
// {"privateKey","chainId","nonce","maxPriorityFeePerGas","maxFeePerGas","gas","to","value","data"}
// on stdin (numbers as decimal strings) and prints the signed serialized transaction as 0x-hex.
import { readFileSync } from "node:fs";
import { privateKeyToAccount } from "viem/accounts";
const req = JSON.parse(readFileSync(0, "utf8"));
const account = privateKeyToAccount(req.privateKey);
const raw = await account.signTransaction({
  type: "eip1559",
  chainId: Number(req.chainId),
  nonce: Number(req.nonce),
  maxPriorityFeePerGas: BigInt(req.maxPriorityFeePerGas),
  maxFeePerGas: BigInt(req.maxFeePerGas),
  gas: BigInt(req.gas),
  to: req.to,
  value: BigInt(req.value),
  data: req.data,
  accessList: [],
});
process.stdout.write(raw + "\n");
