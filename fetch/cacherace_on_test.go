//go:build race

package fetch

// cacheRaceEnabled is set when the race detector, which allocates and
// slows everything, is on.
const cacheRaceEnabled = true
