package meta_test

import (
	"fmt"
	"net/http"

	"github.com/robotskit/robots/meta"
)

// A response that states usage preferences three ways: the AIPREF
// Content-Usage header, a TDMRep reservation, and DeviantArt's noai in
// X-Robots-Tag.
func ExampleUsageFromHeader() {
	h := http.Header{}
	h.Set("Content-Usage", "train-ai=y, search=y")
	h.Set("tdm-reservation", "1")
	h.Set("X-Robots-Tag", "noai")
	ss := meta.UsageFromHeader(h)
	ss = append(ss, meta.UsageFromDirectives(meta.FromHeader(h), "GPTBot")...)
	for _, s := range ss {
		fmt.Printf("%s %q: search=%s ai-input=%s ai-train=%s\n", s.Source, s.Value, s.Prefs[0], s.Prefs[1], s.Prefs[2])
	}
	// Output:
	// Content-Usage header "train-ai=y, search=y": search=yes ai-input=none ai-train=yes
	// tdm-reservation header "1": search=none ai-input=none ai-train=no
	// X-Robots-Tag "noai": search=none ai-input=none ai-train=no
}
