package meta

import (
	"testing"

	"github.com/robotskit/robots/internal/aipref"
)

// TestTDMReservation: a reservation read from tdmrep.json says what the
// tdm-reservation header says (TDMRep #sec-tdm-reservation): 1 is
// ai-train no, 0 ai-train yes, anything else nothing.
func TestTDMReservation(t *testing.T) {
	for _, c := range []struct {
		res  int
		want aipref.Value
		ok   bool
	}{{1, aipref.No, true}, {0, aipref.Yes, true}, {-1, aipref.None, false}, {2, aipref.None, false}} {
		s, ok := TDMReservation(c.res, "https://example.com/policy.json", "tdmrep.json")
		if ok != c.ok || s.Prefs[aipref.AITrain] != c.want || s.Prefs[aipref.AIInput] != aipref.None || s.Source != "tdmrep.json" {
			t.Errorf("TDMReservation(%d) = %+v, %v", c.res, s, ok)
		}
		h := UsageFromHeader(map[string][]string{"Tdm-Reservation": {s.Value}})
		if ok && (len(h) != 1 || h[0].Prefs != s.Prefs) {
			t.Errorf("reservation %d: the header says %+v, the file %+v", c.res, h, s.Prefs)
		}
	}
}
