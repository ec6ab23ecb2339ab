package egress

import (
	"net/netip"
	"strings"
)

// blockedRange is one range the policy refuses and the reason it names.
type blockedRange struct {
	prefix netip.Prefix
	reason string
}

func mustPrefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }

// loopbackRanges are admitted under Policy.AllowLoopback and refused otherwise.
var loopbackRanges = []blockedRange{
	{mustPrefix("127.0.0.0/8"), "loopback"},
	{mustPrefix("::1/128"), "loopback"},
}

// blockedRanges are refused always (IANA special-purpose registries, RFC 6890 and updates).
// Metadata endpoints come first so that 169.254.169.254 is named for what it is.
var blockedRanges = []blockedRange{
	{mustPrefix("169.254.169.254/32"), "metadata"},   // AWS, GCP, Azure, OpenStack
	{mustPrefix("169.254.170.2/32"), "metadata"},     // AWS ECS task metadata
	{mustPrefix("100.100.100.200/32"), "metadata"},   // Alibaba Cloud
	{mustPrefix("fd00:ec2::254/128"), "metadata"},    // AWS over IPv6
	{mustPrefix("0.0.0.0/8"), "unspecified"},         // "this network"; 0.0.0.0 dials loopback on Linux
	{mustPrefix("::/128"), "unspecified"},            // likewise
	{mustPrefix("10.0.0.0/8"), "private"},            // RFC 1918
	{mustPrefix("172.16.0.0/12"), "private"},         // RFC 1918
	{mustPrefix("192.168.0.0/16"), "private"},        // RFC 1918
	{mustPrefix("100.64.0.0/10"), "cgnat"},           // RFC 6598 shared address space
	{mustPrefix("169.254.0.0/16"), "link-local"},     // RFC 3927
	{mustPrefix("fe80::/10"), "link-local"},          // RFC 4291
	{mustPrefix("fc00::/7"), "private"},              // unique local, RFC 4193
	{mustPrefix("fec0::/10"), "private"},             // deprecated site-local
	{mustPrefix("224.0.0.0/4"), "multicast"},         // RFC 5771
	{mustPrefix("ff00::/8"), "multicast"},            // RFC 4291
	{mustPrefix("240.0.0.0/4"), "reserved"},          // class E and 255.255.255.255
	{mustPrefix("192.0.0.0/24"), "reserved"},         // IETF protocol assignments
	{mustPrefix("198.18.0.0/15"), "reserved"},        // benchmarking
	{mustPrefix("192.0.2.0/24"), "documentation"},    // TEST-NET-1
	{mustPrefix("198.51.100.0/24"), "documentation"}, // TEST-NET-2
	{mustPrefix("203.0.113.0/24"), "documentation"},  // TEST-NET-3
	{mustPrefix("2001:db8::/32"), "documentation"},   // RFC 3849
	{mustPrefix("100::/64"), "reserved"},             // discard-only
	{mustPrefix("2001::/32"), "reserved"},            // Teredo: tunnels to an IPv4 we cannot see
	{mustPrefix("2001:10::/28"), "reserved"},         // ORCHID
	{mustPrefix("2001:20::/28"), "reserved"},         // ORCHIDv2
}

// metadataHosts are host names that reach a cloud metadata service from inside the cloud,
// whatever the resolver in use says.
var metadataHosts = map[string]bool{
	"metadata":                   true,
	"metadata.google.internal":   true,
	"metadata.goog":              true,
	"instance-data":              true,
	"instance-data.ec2.internal": true,
}

// embeddedV4 returns the IPv4 address an IPv6 address carries and routes to: IPv4-mapped
// (::ffff:a.b.c.d), NAT64 (64:ff9b::/96 and 64:ff9b:1::/48) and 6to4 (2002::/16). A
// private IPv4 inside one of those is as private as the bare one.
func embeddedV4(a netip.Addr) (netip.Addr, bool) {
	if a.Is4In6() {
		return a.Unmap(), true
	}
	if !a.Is6() {
		return netip.Addr{}, false
	}
	b := a.As16()
	switch {
	case b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b: // 64:ff9b::/96 and 64:ff9b:1::/48
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case b[0] == 0x20 && b[1] == 0x02: // 2002:AABB:CCDD::/48
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}

// Classify names why the policy refuses a, or "" when a is a public unicast address. A
// loopback address answers "loopback" whatever the policy; Policy.allowed decides. The zone of
// a scoped address is ignored (fe80::1%eth0 is link-local).
func Classify(a netip.Addr) string {
	if !a.IsValid() {
		return "invalid"
	}
	a = a.WithZone("")
	if v4, ok := embeddedV4(a); ok {
		if r := Classify(v4); r != "" {
			return r
		}
		if a.Is4In6() {
			return ""
		}
	}
	for _, r := range loopbackRanges {
		if r.prefix.Contains(a) {
			return r.reason
		}
	}
	for _, r := range blockedRanges {
		if r.prefix.Contains(a) {
			return r.reason
		}
	}
	return ""
}

// isMetadataHost reports a host name that reaches a metadata service (case and a trailing dot
// ignored).
func isMetadataHost(host string) bool {
	return metadataHosts[strings.TrimSuffix(strings.ToLower(host), ".")]
}
