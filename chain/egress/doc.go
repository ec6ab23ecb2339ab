// Package egress is the arena's only way out to addresses it does not control: agent cards
// (§4.1 GET agent_uri) and agent endpoints (§4 A2A calls). Those URLs come from strangers, so
// every outbound call goes through a Policy that refuses loopback, private, link-local,
// CGNAT, multicast, unspecified, reserved and cloud-metadata addresses, checked on the
// RESOLVED address at dial time: the host is resolved once per dial and the connection is
// made to that very address (DNS pinned), so a name cannot answer "public" to the check and
// "169.254.169.254" to the connect. Every redirect is dialled through the same check, and a
// redirect may not leave https. Every call has a timeout and a response size cap.
//
// The same Policy checks a URL at registration time (CheckURL), so a card or endpoint that
// points inside is refused before it is ever stored.
//
// It lives under chain/ (the bottom floor) because Badge resolution (chain/badge) and the A2A
// door (transport/a2a) both go out through it, and chain may not import transport.
//
// The development setting (Policy.AllowLoopback, Policy.AllowHTTP) admits loopback and plain
// http for agents on the same machine; nothing else inside is ever admitted.
package egress
