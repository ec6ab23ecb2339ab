package identity

import (
	"fmt"
	"slices"
	"strings"
)

// Bounds of a handle's name ("3–20 chars [a-z0-9_-]").
const (
	MinName = 3
	MaxName = 20
)

// Reserved are the names nobody may claim: Break Room's own ("_" and the names of its house, its
// staff and its operators), names people read as the service's or as an authority's, and the
// mailbox names RFC 2142 sets aside. Prefixes lists the starts no name may have, so that
// "house-bot" or "breakroom_official" cannot pass as the house either.
var (
	Reserved = []string{
		"_", "abuse", "admin", "administrator", "anonymous", "api", "arena", "bartender", "bot", "breakroom",
		"break-room", "break_room", "dealer", "everyone", "help", "hostmaster", "house", "info", "mod",
		"moderator", "noreply", "no-reply", "nostr", "null", "official", "operator", "ops", "owner", "postmaster",
		"root", "security", "server", "staff", "support", "sysop", "system", "team", "undefined", "webmaster", "www",
	}
	Prefixes = []string{"admin", "bartender", "breakroom", "house", "official", "staff"}
)

// Codes of a refused claim (breakroom-protocol-v0.md "Error codes").
const (
	CodeNotEligible  = "not_eligible"
	CodeInvalid      = "handle_invalid"
	CodeReserved     = "handle_reserved"
	CodeTaken        = "handle_taken"
	CodeHasHandle    = "already_has_handle"
	CodeBadRequest   = "bad_request"
	nameCharsWording = "a-z, 0-9, '_' and '-'"
)

// checkName is nil for a name a key may claim as far as its spelling goes: handle_invalid for
// one outside MinName..MaxName bytes or with a character outside [a-z0-9_-] (upper case
// included: names are lower case, as NIP-05's local part), handle_reserved for a reserved one.
func checkName(name string) (code, detail string) {
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return CodeInvalid, fmt.Sprintf("name may hold only %s (lower case); %q is not one", nameCharsWording, c)
		}
	}
	if len(name) < MinName || len(name) > MaxName {
		return CodeInvalid, fmt.Sprintf("name is %d to %d characters; %q has %d", MinName, MaxName, name, len(name))
	}
	if slices.Contains(Reserved, name) {
		return CodeReserved, fmt.Sprintf("%q is reserved", name)
	}
	for _, p := range Prefixes {
		if strings.HasPrefix(name, p) {
			return CodeReserved, fmt.Sprintf("names starting with %q are reserved", p)
		}
	}
	return "", ""
}
