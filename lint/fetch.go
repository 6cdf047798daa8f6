package lint

// Checks of the fetch and of the file's location (checker-rules §A,
// RB1xx). They read Config.Fetch and Config.URL.
var fetchChecks = []*Check{}
