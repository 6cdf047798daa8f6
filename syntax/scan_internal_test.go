package syntax

import "testing"

// indexLine reads eight octets at a time; compare it with an octet-by-octet
// reading for two special octets at every pair of positions, every line
// start and every input length.
func TestIndexLine(t *testing.T) {
	slow := func(s string, from int) (end, stop, colon int) {
		end, stop, colon = len(s), -1, -1
		for i := from; i < len(s); i++ {
			c := s[i]
			if c == '\n' || c == '\r' {
				end = i
				break
			}
			if stop < 0 && (c == 0 || c == '#') {
				stop = i
			}
			if stop < 0 && colon < 0 && c == ':' {
				colon = i
			}
		}
		if stop < 0 {
			stop = end
		}
		return end, stop, colon
	}
	special := []byte{'\n', '\r', 0, '#', ':', 0x80, 0xFF, '9', ' ', '\t', 1, 0x0E}
	base := []byte("abcdefghijklmnopqrstu")
	for _, c1 := range special {
		for _, c2 := range special {
			for p1 := 0; p1 < len(base); p1++ {
				for p2 := p1 + 1; p2 < len(base); p2++ {
					b := append([]byte(nil), base...)
					b[p1], b[p2] = c1, c2
					s := string(b)
					for n := 0; n <= len(s); n++ {
						for from := 0; from <= min(n, 3); from++ {
							e, st, co := indexLine(s[:n], from)
							we, wst, wco := slow(s[:n], from)
							if e != we || st != wst || co != wco {
								t.Fatalf("indexLine(%q, %d) = %d, %d, %d, want %d, %d, %d", s[:n], from, e, st, co, we, wst, wco)
							}
						}
					}
				}
			}
		}
	}
}

func TestIsSpace(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'
		if got := isSpace(byte(c)); got != want {
			t.Errorf("isSpace(%#x) = %v", c, got)
		}
	}
}
