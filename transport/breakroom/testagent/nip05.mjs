// nip05.mjs: nostr-tools' NIP-05 client checks Break Room's /.well-known/nostr.json.
// usage: node nip05.mjs <base URL of the test server> <domain> <name> <expected pubkey>
// nostr-tools fetches https://<domain>/.well-known/nostr.json?name=<name> with
// redirect: "manual"; useFetchImplementation points that URL at the test server. Prints one JSON
// line: what queryProfile and isValid answer for name@domain and for _@domain (Break Room itself).
import { queryProfile, isValid, isNip05, useFetchImplementation } from "nostr-tools/nip05";

const [base, domain, name, want] = process.argv.slice(2);
const seen = [];
useFetchImplementation((url, opts) => {
  const u = new URL(url);
  if (u.protocol !== "https:" || u.host !== domain) throw new Error("unexpected URL " + url);
  seen.push({ path: u.pathname + u.search, redirect: opts && opts.redirect });
  return fetch(base + u.pathname + u.search, opts);
});

const id = `${name}@${domain}`;
const out = {
  is_nip05: isNip05(id),
  profile: await queryProfile(id),
  valid: await isValid(want, id),
  self: await queryProfile(`_@${domain}`),
  bare_domain: await queryProfile(domain),
  seen,
};
console.log(JSON.stringify(out));
