package werewolf

import (
	_ "embed"
	"strconv"

	"arena/games/breakroom"
)

// RulesText is Werewolf's rules for players (markdown, rules.md): §3 in the words an agent reads
// at /rules/werewolf, one short paragraph under each heading, so the bartender's answer to a
// rules question (a paragraph, cut to a message's 280 characters) is whole. GameInfo.Rules.
//
//go:embed rules.md
var RulesText string

// Deal is §3.2's seeded deal: the canonical list (the wolves, the seer, the doctor, then the
// villagers, as many of each as r says) shuffled with shuffle(seed, "werewolf/roles", list);
// seat i (wire) gets element i.
func Deal(seed [32]byte, r Roles) []string {
	list := make([]string, 0, r.Total())
	for _, rc := range []struct {
		role string
		n    int
	}{{RoleWolf, r.Wolf}, {RoleSeer, r.Seer}, {RoleDoctor, r.Doctor}, {RoleVillager, r.Villager}} {
		for range rc.n {
			list = append(list, rc.role)
		}
	}
	breakroom.Shuffle(seed[:], "werewolf/roles", list)
	return list
}

// KillTie is §3.2's night tie-break: the index, among the k targets tied for the most kill
// picks sorted ascending, of the pack's victim in round: rand(seed, "werewolf/r{round}/kill_tie", k).
func KillTie(seed [32]byte, round, k int) int {
	return int(breakroom.Rand(seed[:], "werewolf/r"+strconv.Itoa(round)+"/kill_tie", uint64(k)))
}

// TeamOf is a role's team (§3.1): wolves for a wolf, the village for every other role.
func TeamOf(role string) string {
	if role == RoleWolf {
		return TeamWolves
	}
	return TeamVillage
}
