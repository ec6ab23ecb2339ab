// Signs an EIP-3009 TransferWithAuthorization with viem's signTypedData, for chain/evm's
// cross-check that chain/x402 verifies what a real wallet library signs. Reads one JSON object
// {"privateKey","domain":{name,version,chainId,verifyingContract},"message":{from,to,value,
// validAfter,validBefore,nonce}} on stdin (numbers as decimal strings) and prints the 65-byte
// signature as 0x-hex.
import { readFileSync } from "node:fs";
import { privateKeyToAccount } from "viem/accounts";
const req = JSON.parse(readFileSync(0, "utf8"));
const account = privateKeyToAccount(req.privateKey);
const m = req.message;
const signature = await account.signTypedData({
  domain: { ...req.domain, chainId: BigInt(req.domain.chainId) },
  types: {
    TransferWithAuthorization: [
      { name: "from", type: "address" },
      { name: "to", type: "address" },
      { name: "value", type: "uint256" },
      { name: "validAfter", type: "uint256" },
      { name: "validBefore", type: "uint256" },
      { name: "nonce", type: "bytes32" },
    ],
  },
  primaryType: "TransferWithAuthorization",
  message: { ...m, value: BigInt(m.value), validAfter: BigInt(m.validAfter), validBefore: BigInt(m.validBefore) },
});
process.stdout.write(signature + "\n");
