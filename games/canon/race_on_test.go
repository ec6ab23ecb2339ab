//go:build race

package canon

// raceEnabled: the race detector slows the 100 000 ES6 vectors tenfold; TestES6Numbers then
// samples every 7th.
const raceEnabled = true
