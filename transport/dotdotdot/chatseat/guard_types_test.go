package chatseat

import "testing"

// The kind behind TestToolNameWrongTypeIsShortInvalidParams: any member mcp-go decodes
// into a typed field, in any method it serves, answers a fixed message when its type is wrong.
func TestWrongTypedParamsAnswerFixedInvalidParams(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":21,"method":"tools/list","params":{"cursor":{"a":1}}}`, -32602, msgParamsTypes, float64(21))
	refused(t, `{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":["register"],"arguments":{}}}`, -32602, msgParamsTypes, float64(22))
	refused(t, `{"jsonrpc":"2.0","id":23,"method":"tools/call","params":{"name":"register","arguments":{},"_meta":7}}`, -32602, msgParamsTypes, float64(23))
	refused(t, `{"jsonrpc":"2.0","id":24,"method":"initialize","params":{"protocolVersion":2025}}`, -32602, msgParamsTypes, float64(24))
}

func TestWrongTypedEnvelopeIsInvalidRequest(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":25,"method":7}`, -32600, msgInvalid, float64(25))
	refused(t, `{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`, -32600, msgIDKind, nil)
	refused(t, `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, -32600, msgIDKind, nil)
}

func TestSoundBatchIsRefused(t *testing.T) {
	refused(t, `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, -32600, msgBatch, nil)
}

// An unknown method is answered with a fixed text, not the method echoed back; a notification
// of an unknown method is left to mcp-go (no answer is due).
func TestUnknownMethodIsFixedMethodNotFound(t *testing.T) {
	refused(t, `{"jsonrpc":"2.0","id":26,"method":"<script>alert(1)</script>"}`, -32601, msgMethodNotFound, float64(26))
	refused(t, `{"jsonrpc":"2.0","id":"x","method":"tools/delete","params":{}}`, -32601, msgMethodNotFound, "x")
}
