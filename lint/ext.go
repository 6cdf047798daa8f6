package lint

// Checks of non-group and extended directives (checker-rules §F, RB6xx).
var extChecks = []*Check{}
