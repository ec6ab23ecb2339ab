package badge

import "testing"

// Found by tester T1 against a running `arena serve` on its defaults. The instance's stand-in
// Badge (config.DeriveAgent) has a u64 token id from SHA-256, almost always above 2^53 − 1, and
// /.well-known/agent.json served
//
//	"registrations":[{"agentId":13077503408096846387,"agentRegistry":"ccd:…:12802.0"}]
//
// WriteCard writes that token id as a JSON number; ParseCard (this package's own reader, the
// one §4.3's resolution of the arena goes through) refuses the very bytes:
//
//	bad_card: card is not strict JSON: canon: integer outside ±(2^53-1): 13077503408096846387
//
// so an agent that verifies the arena instance per §4.1/§4.3 with this resolver refuses every
// default instance, and a JavaScript client reads a different agentId (…6387 → …6000). WriteCard
// promises to refuse any spec ParseCard would refuse. Right behaviour: what WriteCard writes,
// ParseCard reads back, for every Badge token id WriteCard accepts (write the id in a form
// that survives I-JSON, or refuse such a spec at the writer and derive ids below 2^53).
func TestHostileCardLargeTokenIDRoundTrip(t *testing.T) {
	spec := specFor(t)
	spec.Agent = NewAgentID(Testnet, TestnetRegistry, 13077503408096846387)
	b, err := WriteCard(spec)
	if err != nil {
		return // refusing at the writer is a right answer too
	}
	c, err := ParseCard(b)
	if err != nil {
		t.Fatalf("WriteCard wrote a card ParseCard refuses: %v\n%s", err, b)
	}
	if len(c.Registrations) != 1 || c.Registrations[0].AgentRegistry != TestnetRegistry.String() {
		t.Fatalf("registrations %+v", c.Registrations)
	}
}
