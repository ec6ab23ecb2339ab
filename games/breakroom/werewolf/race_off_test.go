//go:build !race

package werewolf

const raceOn = false
