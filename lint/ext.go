package lint

// Checks of non-group and extended directives (checker-rules §F, RB6xx).
var extChecks = []*Check{}

// extTodo lists the checks of this section not implemented, with the reason.
var extTodo = map[string]string{
	"RB601": "not written yet",
	"RB602": "not written yet",
	"RB603": "not written yet",
	"RB604": "not written yet",
	"RB605": "not written yet",
	"RB606": "not written yet",
	"RB607": "not written yet",
	"RB608": "not written yet",
	"RB620": "not written yet",
	"RB621": "not written yet",
	"RB622": "not written yet",
	"RB623": "not written yet",
	"RB624": "not written yet",
	"RB630": "not written yet",
	"RB631": "not written yet",
	"RB632": "not written yet",
	"RB633": "not written yet",
	"RB634": "not written yet",
	"RB640": "not written yet",
	"RB641": "not written yet",
	"RB642": "not written yet",
	"RB643": "not written yet",
	"RB644": "not written yet",
	"RB645": "not written yet",
	"RB646": "not written yet",
	"RB650": "not written yet",
	"RB651": "not written yet",
	"RB655": "not written yet",
	"RB656": "not written yet",
	"RB657": "not written yet",
	"RB660": "not written yet",
	"RB661": "not written yet",
	"RB662": "not written yet",
	"RB670": "not written yet",
	"RB671": "not written yet",
	"RB672": "not written yet",
}
