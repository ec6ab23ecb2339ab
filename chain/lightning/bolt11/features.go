package bolt11

import "fmt"

// Features are the bits an invoice's 9 field sets (BOLT 9 numbering: bit 0 is the least
// significant; an even bit is required, the odd bit above it optional), in ascending order. nil
// when the invoice has no 9 field.
type Features []uint16

// Has reports whether bit is set.
func (f Features) Has(bit uint16) bool {
	for _, b := range f {
		if b == bit {
			return true
		}
	}
	return false
}

// knownFeatures are the feature pairs BOLT 9 assigns to invoices (context 9), or that it ASSUMED
// and invoices still set, by their even bit. Decode refuses any other even bit ("if the 9 field
// contains unknown even bits that are non-zero: MUST fail the payment") and ignores other odd
// ones. Known means BOLT 9 defines the bit for invoices, not that a node supports it: a caller
// that pays checks what it needs.
var knownFeatures = map[uint16]string{
	8:  "var_onion_optin",
	14: "payment_secret",
	16: "basic_mpp",
	24: "option_route_blinding",
	36: "option_attribution_data",
	48: "option_payment_metadata",
}

// featureDeps are BOLT 9's dependencies among the known features, by even bit: a vector that
// sets either bit of the key sets either bit of the value.
var featureDeps = map[uint16]uint16{
	16: 14, // basic_mpp needs payment_secret
}

// parseFeatures reads a 9 field's big-endian 5-bit values. Errors wrap ErrNonMinimal (empty, or a
// leading 0 value).
func parseFeatures(g []byte) (Features, error) {
	if len(g) == 0 {
		return nil, fmt.Errorf("%w: empty 9 field (a writer MUST omit it)", ErrNonMinimal)
	}
	if g[0] == 0 {
		return nil, fmt.Errorf("%w: 9 field starts with a 0 value", ErrNonMinimal)
	}
	var f Features
	for i := len(g) - 1; i >= 0; i-- {
		base := uint16(len(g)-1-i) * 5
		for k := uint16(0); k < 5; k++ {
			if g[i]>>k&1 == 1 {
				f = append(f, base+k)
			}
		}
	}
	return f, nil
}

// check refuses an unknown even bit (ErrUnknownFeature) or a known feature without the feature
// it depends on (ErrFeatureDependency).
func (f Features) check() error {
	for _, b := range f {
		if b%2 == 0 {
			if _, ok := knownFeatures[b]; !ok {
				return fmt.Errorf("%w: bit %d", ErrUnknownFeature, b)
			}
		}
	}
	for _, b := range f {
		dep, ok := featureDeps[b&^1]
		if ok && !f.Has(dep) && !f.Has(dep+1) {
			return fmt.Errorf("%w: bit %d (%s) needs bit %d or %d (%s)", ErrFeatureDependency, b, knownFeatures[b&^1], dep, dep+1, knownFeatures[dep])
		}
	}
	return nil
}
