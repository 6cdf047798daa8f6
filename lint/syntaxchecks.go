package lint

// Checks of line syntax (checker-rules §C, RB3xx).
var syntaxChecks = []*Check{}
