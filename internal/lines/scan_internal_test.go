package lines

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
		if got := IsSpace(byte(c)); got != want {
			t.Errorf("IsSpace(%#x) = %v", c, got)
		}
	}
}

func TestScannerZero(t *testing.T) {
	var s Scanner
	var l Line
	if s.Scan(&l) {
		t.Errorf("zero Scanner: Scan returned true")
	}
	s.Init("a\nb")
	s.Scan(&l)
	s.Init("x") // Init restarts
	if !s.Scan(&l) || l.Span != (Range{0, 1}) || l.EOL != 0 {
		t.Errorf("after re-Init: got line %+v, want [0, 1) without terminator", l.Span)
	}
	if s.Scan(&l) {
		t.Errorf("after re-Init: second Scan returned true")
	}
}

// TestScannerReusesLine checks that Scan clears what an earlier line left in l.
func TestScannerReusesLine(t *testing.T) {
	var s Scanner
	s.Init("Disallow /x #c\n\x00")
	var l Line
	s.Scan(&l)
	s.Scan(&l)
	if l.Key != (Range{}) || l.Value != (Range{}) || l.HasComment() || l.Field != Unknown || l.Flags != NUL || l.Kind != BlankLine {
		t.Errorf("line 2: got %+v, want a blank line with only NUL set", l)
	}
}

// TestBOM checks the prefixes of a byte order mark that BOM skips.
func TestBOM(t *testing.T) {
	for in, want := range map[string]int{
		"": 0, "a": 0, "\xEF": 1, "\xEF\xBB": 2, "\xEF\xBB\xBF": 3, "\xEF\xBB\xBF\xEF\xBB\xBF": 3,
		"\xEF\x11\xBF": 1, "\xEF\xBB\xEF": 2, "\xBB\xBF": 0,
	} {
		if got := BOM(in); got != want {
			t.Errorf("BOM(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestEOLLen checks the terminators EOLLen measures.
func TestEOLLen(t *testing.T) {
	for _, c := range []struct {
		text string
		end  int
		want int
	}{
		{"", 0, 0}, {"a", 1, 0}, {"a\n", 1, 1}, {"a\r", 1, 1}, {"a\r\n", 1, 2},
		{"a\n\r", 1, 1}, {"a\r\r\n", 1, 1}, {"\r\n", 0, 2},
	} {
		if got := EOLLen(c.text, c.end); got != c.want {
			t.Errorf("EOLLen(%q, %d) = %d, want %d", c.text, c.end, got, c.want)
		}
	}
}
