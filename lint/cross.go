package lint

// Checks of what different robot families read differently in the same
// file (checker-rules §G, RB7xx).
var crossChecks = []*Check{}
