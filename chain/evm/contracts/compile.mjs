// Compiles TestUSDC.sol with the solc npm package (the official Solidity compiler) and prints
// {"abi": [...], "bytecode": "0x..."} on stdout. chain/evm's tests run it: `node compile.mjs`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const solc = require("solc");
const here = new URL(".", import.meta.url);
const input = {
  language: "Solidity",
  sources: { "TestUSDC.sol": { content: readFileSync(new URL("TestUSDC.sol", here), "utf8") } },
  settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun", outputSelection: { "*": { TestUSDC: ["abi", "evm.bytecode.object"] } } },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (out.errors || []).filter((e) => e.severity === "error");
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const c = out.contracts["TestUSDC.sol"].TestUSDC;
process.stdout.write(JSON.stringify({ abi: c.abi, bytecode: "0x" + c.evm.bytecode.object }) + "\n");
