package check

import (
	"context"
	"testing"

	"github.com/robotskit/robots/lint/internal/testenv"
	"github.com/robotskit/robots/syntax"
)

// TestDirectiveOf holds the checker's directives to the fields of package
// syntax: every field maps to the directive of the same name, and every
// directive with a field's name is that field's.
func TestDirectiveOf(t *testing.T) {
	byName := map[string]syntax.Field{}
	for f := syntax.Field(1); f.String() != ""; f++ {
		byName[f.String()] = f
		if d := DirectiveOf(f); d.String() != f.String() {
			t.Errorf("DirectiveOf(%v) = %q, want the directive of that name", f, d)
		}
	}
	if len(byName) == 0 {
		t.Fatal("package syntax has no fields")
	}
	if d := DirectiveOf(syntax.Unknown); d != None {
		t.Errorf("DirectiveOf(Unknown) = %v, want None", d)
	}
	for d := UserAgent; d < numDirectives; d++ {
		if f, ok := byName[d.String()]; ok && DirectiveOf(f) != d {
			t.Errorf("%v is field %v, which maps to %v", d, f, DirectiveOf(f))
		}
	}
}

// TestModel checks how the model reads keys and groups: exact keys,
// variants Google accepts, misspellings, orphans and the canonical
// groups (a User-agent line after a rule starts a new group; blank lines
// end nothing).
func TestModel(t *testing.T) {
	src := "Disallow: /orphan\nUser-agent: a\nuseragent: b\n\nDisalow: /x\nDisallw: /y\nUser-agent: *\nAllow: /z\nNoindex: /n\n"
	p := NewPass(context.Background(), syntax.Parse("", []byte(src)), "", nil)
	want := []struct {
		dir, guess Directive
		match      KeyMatch
		group      int
		orphan     bool
	}{
		{Disallow, Disallow, KeyExact, -1, true},
		{UserAgent, UserAgent, KeyExact, 0, false},
		{UserAgent, UserAgent, KeyAccepted, 0, false},
		{None, None, KeyNone, 0, false},
		{Disallow, Disallow, KeyAccepted, 0, false},
		{None, Disallow, KeyMisspelled, 0, false},
		{UserAgent, UserAgent, KeyExact, 1, false},
		{Allow, Allow, KeyExact, 1, false},
		{Noindex, Noindex, KeyExact, 1, false},
	}
	if len(p.Lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(p.Lines), len(want))
	}
	for i, w := range want {
		l := &p.Lines[i]
		if l.Dir != w.dir || l.Guess != w.guess || l.Match != w.match || l.Group != w.group || l.Orphan != w.orphan {
			t.Errorf("line %d: dir %v guess %v match %d group %d orphan %v, want %+v", l.Num, l.Dir, l.Guess, l.Match, l.Group, l.Orphan, w)
		}
	}
	if len(p.Groups) != 2 || !p.Groups[1].Global || p.Groups[0].Global {
		t.Fatalf("groups %+v", p.Groups)
	}
	if g := &p.Groups[0]; g.First() != 1 || g.Last() != 4 || len(g.Rules) != 1 {
		t.Errorf("group 0: first %d last %d rules %v", g.First(), g.Last(), g.Rules)
	}
	if keys := p.GroupKeys(&p.Groups[0]); len(keys) != 2 || keys[0] != "a" || keys[1] != "b" {
		t.Errorf("GroupKeys = %q", keys)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 512000: "512,000", 1234567: "1,234,567", -5: "-5"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestCorpus holds the model of every file of the -corpus folder to its
// invariants: one line for each line of the file, the groups in order,
// each made of its own lines, and orphans only before the first group.
func TestCorpus(t *testing.T) {
	names, srcs := testenv.Corpus(t)
	for i, name := range names {
		f := syntax.Parse(name, srcs[i])
		p := NewPass(context.Background(), f, "", nil)
		if len(p.Lines) != len(f.Lines) {
			t.Fatalf("%s: %d lines, the file has %d", name, len(p.Lines), len(f.Lines))
		}
		for k := range p.Lines {
			l := &p.Lines[k]
			if l.Num != k+1 || l.Group < -1 || l.Group >= len(p.Groups) || l.Orphan && (l.Group != -1 || !l.Dir.Member()) {
				t.Errorf("%s: line %d: num %d, group %d, orphan %v", name, k+1, l.Num, l.Group, l.Orphan)
			}
		}
		last := -1
		for gi := range p.Groups {
			g := &p.Groups[gi]
			if g.Index != gi || len(g.Agents) == 0 || g.First() <= last {
				t.Errorf("%s: group %d: index %d, agents %v", name, gi, g.Index, g.Agents)
				continue
			}
			for _, a := range g.Agents {
				if l := &p.Lines[a]; l.Dir != UserAgent || l.Group != gi {
					t.Errorf("%s: group %d: agent line %d is %v of group %d", name, gi, a+1, l.Dir, l.Group)
				}
			}
			for _, m := range g.Members {
				if l := &p.Lines[m]; !l.Dir.Member() || l.Group != gi {
					t.Errorf("%s: group %d: member line %d is %v of group %d", name, gi, m+1, l.Dir, l.Group)
				}
			}
			for _, r := range g.Rules {
				if !p.Lines[r].Dir.Rule() {
					t.Errorf("%s: group %d: rule line %d is %v", name, gi, r+1, p.Lines[r].Dir)
				}
			}
			last = g.Last()
		}
	}
}
