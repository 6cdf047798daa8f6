package aipref_test

import (
	"fmt"

	"github.com/robotskit/robots/internal/aipref"
)

// A Content-Usage value that says less than its author meant: "no" is not
// the Token n, so AI training stays unknown (draft-ietf-aipref-vocab-08
// §6.5), and the problem suggests the fix.
func ExampleParseUsage() {
	u := aipref.ParseUsage("train-ai=no, search=y")
	for p := range aipref.NumPurposes {
		fmt.Printf("%s: %s\n", p, u.Prefs[p])
	}
	for _, prob := range u.Problems {
		fmt.Printf("at %d: %q, did you mean %q?\n", prob.Offset, prob.Key+"="+prob.Value, prob.Suggest)
	}
	// Output:
	// search: yes
	// ai-input: none
	// ai-train: none
	// at 9: "train-ai=no", did you mean "train-ai=n"?
}

// A robots.txt Content-Usage rule and a Content-Signal header about the
// same page combine as vocab-08 §5.1 says: any disallow wins.
func ExampleCombine() {
	rule := aipref.ParseUsage("train-ai=y, search=y")
	header := aipref.ParseSignal("ai-train=no, ai-input=yes")
	fmt.Println(aipref.Combine(rule.Prefs, header.Prefs))
	// Output:
	// [yes yes no]
}

func ExampleParseSignal() {
	s := aipref.ParseSignal("search=yes,ai-train=no,use=reference")
	fmt.Println(s.Prefs[aipref.Search], s.Prefs[aipref.AITrain], s.Use)
	// Output:
	// yes no reference
}
