package arena

import (
	"strings"
	"testing"
)

// TestArena: the strings an Arena returns equal those of plain
// concatenation and keep their bytes while the arena goes on building
// (past several of its arrays); a nil *Arena gives the same strings.
func TestArena(t *testing.T) {
	for _, a := range []*Arena{new(Arena), nil} {
		type pair struct{ got, want string }
		var all []pair
		for i := range 3000 {
			v := strings.Repeat("a*b", i%7) + "/" + strings.Repeat("X", i%5)
			all = append(all,
				pair{a.Concat(v, "x"), v + "x"},
				pair{a.Concat3(v, "/m", "q"), v + "/m" + "q"},
				pair{a.ReplaceStars(v, "/seg", "$"), strings.ReplaceAll(v, "*", "/seg") + "$"},
				pair{a.ReplaceStars(v, "", ""), strings.ReplaceAll(v, "*", "")},
				pair{a.Lower(v), strings.ToLower(v)},
			)
		}
		for _, p := range all {
			if p.got != p.want {
				t.Fatalf("arena (nil %v): %q, want %q", a == nil, p.got, p.want)
			}
		}
	}
	var a Arena
	if got := a.Concat("", ""); got != "" {
		t.Errorf("empty concat: %q", got)
	}
	if n := testing.AllocsPerRun(100, func() { a.Concat("/docs", "/x") }); n > 0.1 {
		t.Errorf("Concat allocates %v times a call", n)
	}
}
