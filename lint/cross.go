package lint

// Checks of what different robot families read differently in the same
// file (checker-rules §G, RB7xx).
var crossChecks = []*Check{}

// crossTodo lists the checks of this section not implemented, with the reason.
var crossTodo = map[string]string{
	"RB701": "not written yet",
	"RB702": "not written yet",
	"RB703": "not written yet",
	"RB704": "not written yet",
	"RB705": "not written yet",
	"RB706": "not written yet",
	"RB707": "not written yet",
}
