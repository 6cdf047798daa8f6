package lint

// Checks of line syntax (checker-rules §C, RB3xx).
var syntaxChecks = []*Check{}

// syntaxTodo lists the checks of this section not implemented, with the reason.
var syntaxTodo = map[string]string{
	"RB301": "not written yet",
	"RB302": "not written yet",
	"RB303": "not written yet",
	"RB304": "not written yet",
	"RB305": "not written yet",
	"RB306": "not written yet",
	"RB307": "not written yet",
	"RB308": "not written yet",
	"RB309": "not written yet",
	"RB310": "not written yet",
	"RB311": "not written yet",
	"RB312": "not written yet",
	"RB313": "not written yet",
}
