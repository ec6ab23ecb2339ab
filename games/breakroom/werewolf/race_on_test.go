//go:build race

package werewolf

// raceOn says the tests run under the race detector, which slows the long property runs about
// tenfold: they then play fewer matches (the full count runs without -race).
const raceOn = true
