package sha256pair

import "strings"

// cpuOff reports whether a GODEBUG value turns off a CPU feature block2 uses, as the Go runtime
// reads it (internal/cpu): comma-separated cpu.<feature>=on|off settings, cpu.all for every
// feature, a later setting overriding an earlier one. An operator who turns SHA-NI off for Go
// (cpu.sha=off, a CPU or hypervisor erratum) turns it off here too.
func cpuOff(godebug string) bool {
	on := map[string]bool{"sha": true, "avx": true, "sse41": true, "ssse3": true}
	for _, f := range strings.Split(godebug, ",") {
		k, v, ok := strings.Cut(f, "=")
		name, isCPU := strings.CutPrefix(k, "cpu.")
		if !ok || !isCPU || (v != "on" && v != "off") {
			continue
		}
		if name == "all" {
			for n := range on {
				on[n] = v == "on"
			}
		} else if _, used := on[name]; used {
			on[name] = v == "on"
		}
	}
	return !on["sha"] || !on["avx"] || !on["sse41"] || !on["ssse3"]
}
