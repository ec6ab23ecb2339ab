package werewolf

import (
	"slices"
	"testing"
)

// TestDealWorkedExample: the seed 00..1f deals §3.10's roles at 5 seats.
func TestDealWorkedExample(t *testing.T) {
	got := Deal(seq0(), RolesFor(5))
	want := []string{RoleVillager, RoleSeer, RoleDoctor, RoleVillager, RoleWolf}
	if !slices.Equal(got, want) {
		t.Fatalf("deal %v, §3.10 says %v", got, want)
	}
}
