package lint

// Checks of the fetch and of the file's location (checker-rules §A,
// RB1xx). They read Config.Fetch and Config.URL.
var fetchChecks = []*Check{}

// fetchTodo lists the checks of this section not implemented, with the reason.
var fetchTodo = map[string]string{
	"RB101": "not written yet",
	"RB102": "not written yet",
	"RB103": "not written yet",
	"RB104": "not written yet",
	"RB105": "not written yet",
	"RB106": "not written yet",
	"RB107": "not written yet",
	"RB108": "not written yet",
	"RB109": "not written yet",
	"RB110": "not written yet",
	"RB111": "not written yet",
	"RB112": "not written yet",
	"RB113": "not written yet",
	"RB114": "not written yet",
	"RB115": "not written yet",
	"RB120": "not written yet",
	"RB121": "not written yet",
	"RB122": "not written yet",
	"RB123": "not written yet",
	"RB130": "not written yet",
	"RB131": "not written yet",
	"RB132": "not written yet",
	"RB133": "not written yet",
	"RB134": "not written yet",
	"RB135": "not written yet",
	"RB136": "not written yet",
	"RB137": "not written yet",
}
