package dotdotdot

import (
	"encoding/json"

	"arena/actors"
	"arena/games/blitz"
)

// fees are the house fees of the tables this product opens (§14 "arena config"): Options.Fees,
// or §14's when it is nil.
func (a *Arena) fees() blitz.Fees {
	if a.opts.Fees != nil {
		return *a.opts.Fees
	}
	return blitz.DefaultFees()
}

// setFees returns spec with fees written into its Setup.Options (blitz.Options.Fees), so the
// table charges them and its replay charges them again whatever the configuration is by then. A
// table of another game is left as it is, and so is one whose Options are not a JSON object (which
// OpenTable then refuses).
func setFees(spec actors.TableSpec, fees blitz.Fees) actors.TableSpec {
	if spec.Game != walkinGame {
		return spec
	}
	opts := map[string]json.RawMessage{}
	if len(spec.Options) > 0 && string(spec.Options) != "null" {
		if err := json.Unmarshal(spec.Options, &opts); err != nil || opts == nil {
			return spec
		}
	}
	b, _ := json.Marshal(fees) // three integers: cannot fail
	opts["fees"] = b
	spec.Options, _ = json.Marshal(opts) // raw members that decoded: cannot fail
	return spec
}
